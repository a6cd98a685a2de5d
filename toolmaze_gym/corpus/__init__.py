"""The tool corpus: specs as data, behaviours as code, one simulator."""

from toolmaze_gym.corpus.catalog import Corpus, load_corpus
from toolmaze_gym.corpus.simulator import (
    Response,
    Simulator,
    crashed_response,
    error_response,
)
from toolmaze_gym.corpus.spec import AltGroup, ToolSpec
from toolmaze_gym.corpus.state import EpisodeState

__all__ = ["AltGroup", "Corpus", "EpisodeState", "Response", "Simulator", "ToolSpec",
           "crashed_response", "error_response", "load_corpus"]
