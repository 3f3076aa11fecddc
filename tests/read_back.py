"""Numbers read back from the book's words, for tests that check a fact's text against an
independent count."""
import re


def tally_counts(text):
    """``{"holds": 0, "fails": 4, ...}`` read back from :func:`fsbook.report.tally`'s words.

    >>> tally_counts("none holds, 14 fail, 1 shows no gain and 22 are not separable")
    {'holds': 0, 'fails': 14, 'no gain': 1, 'not separable': 22}
    """
    out = {}
    for verdict, word in (("holds", "hold"), ("fails", "fail"), ("no gain", "show"), ("not separable", "(?:is|are)")):
        m = re.search(rf"(none|\d+) {word}", text)
        out[verdict] = 0 if m is None or m.group(1) == "none" else int(m.group(1))
    return out
