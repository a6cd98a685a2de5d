"""Where toolmaze-v8 put a fault a careful agent may skip (issue 28, item 3)."""

# Every toolmaze-v8 task whose stored P3/P4 victim is a summarizer before a post (the
# check's full list over the 1,600 stored fault profiles: 22 lines).
V8_SUMMARIZER_VICTIMS = {
    "tmz-v8-c3-0006": "s7", "tmz-v8-c3-0030": "s7", "tmz-v8-c3-0043": "s6",
    "tmz-v8-c3-0085": "s6", "tmz-v8-c4-0004": "s9", "tmz-v8-c4-0019": "s9",
    "tmz-v8-c4-0027": "s7", "tmz-v8-c4-0052": "s9", "tmz-v8-c4-0069": "s9",
    "tmz-v8-c4-0085": "s9", "tmz-v8-c4-0093": "s7",
}
