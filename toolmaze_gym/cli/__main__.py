"""``python -m toolmaze_gym.cli``: the ``toolmaze`` command without its entry script."""

import sys

from toolmaze_gym.cli.app import main

sys.exit(main())
