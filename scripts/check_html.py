"""Open every page of the built book in headless Chromium and check it.

For each page, at a 1280-pixel window: MathJax has typeset every formula (no raw TeX and no
inline math left as ``$…$`` text in the visible text), every image has loaded, no notebook output
shows an execution error, every output table has a caption and fits the text column, no shown code
cell is clipped by the text column (hidden inputs are not checked), and no output
shows a raw Python repr (``dtype: …``, ``<… object at 0x…>``, a bare ``NaN`` or ``<NA>`` cell where
the page means "undefined").  A page that only redirects (the root ``index.html``) is not opened;
its target must be a page of the book.  A screenshot of each page is saved under ``_build/screenshots/``.
Exit status 1 lists every failure.

The decisions are pure functions of what the browser measured (:func:`table_problems`, :func:`code_problems`,
:func:`raw_inline_math`, :func:`raw_reprs`), unit-tested without a browser
(``tests/test_check_html.py``).

Usage: ``python scripts/check_html.py _build/html``
"""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service

#: TeX that MathJax would have replaced had it run
RAW_TEX = re.compile(r"(\$\$|\\begin\{|\\frac|\\mathbb|\\sum_|\\lVert|\\operatorname|\\\(|\\\[)")
#: inline math MathJax did not typeset: ``$x$`` or ``$a+b$`` left in the text (a price such as
#: "$5 and $6" has a space after the first ``$`` or a digit right after it, and is not matched)
RAW_INLINE = re.compile(r"(?<![\\$\w])\$(?=[^\s$\d])[^$\n]{1,200}?(?<=\S)\$(?![\w$])")
#: raw reprs of pandas / Python objects in an output
RAW_REPR = re.compile(r"(\bdtype: \w+|\bobject at 0x[0-9a-fA-F]+|<NA>)")
#: a table cell whose whole text is a missing-value marker (the page should say what it means)
BARE_MISSING = {"NaN", "nan", "<NA>", "None", "NaT"}
#: pixels a table may exceed the text column by (sub-pixel layout)
WIDTH_SLACK = 1.0
#: seconds a page's MathJax may take to typeset (a loaded machine can be slow)
SCRIPT_TIMEOUT = 60
SKIP = {"search.html", "genindex.html", "py-modindex.html"}
#: a page that only sends the browser elsewhere (the book's root ``index.html``)
REDIRECT = re.compile(r"^\s*<meta\s+http-equiv=[\"']?refresh[\"']?[^>]*url=([^\"'>]+)[\"']?\s*/?>\s*$",
                      re.IGNORECASE)

WAIT_FOR_MATHJAX = """
const done = arguments[arguments.length - 1];
const t0 = Date.now();
if (!document.querySelector('script[src*="mathjax"]')) { done('no mathjax'); return; }
(function poll() {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    MathJax.startup.promise.then(() => done('typeset')).catch(e => done('error: ' + e));
  } else if (Date.now() - t0 > 15000) {
    done('not loaded');
  } else { setTimeout(poll, 100); }
})();
"""

PAGE_FACTS = """
const imgs = Array.from(document.images).map(i => ({src: i.getAttribute('src'),
                                                     ok: i.complete && i.naturalWidth > 0}));
const main = document.querySelector('main') || document.body;
const clone = main.cloneNode(true);
clone.querySelectorAll('mjx-container, script, style, pre, code, .highlight').forEach(e => e.remove());
const errors = Array.from(document.querySelectorAll('.output.traceback, .output.error, .cell_output .ansi-red-fg'))
                    .map(e => e.innerText.slice(0, 200));
const column = document.querySelector('article.bd-article') || main;
const columnWidth = column.getBoundingClientRect().width;
const tables = Array.from(main.querySelectorAll('.cell_output table')).map((t, i) => {
  const cap = t.querySelector('caption');
  const cells = Array.from(t.querySelectorAll('th, td')).map(c => c.innerText.trim());
  return {index: i, width: t.getBoundingClientRect().width,
          caption: cap ? cap.innerText.trim() : '',
          label: (cap ? cap.innerText.trim() : (cells.find(x => x) || '')).slice(0, 60),
          cells: cells};
});
const outputs = Array.from(main.querySelectorAll('.cell_output')).map(o => {
  const c = o.cloneNode(true);
  c.querySelectorAll('style, script').forEach(e => e.remove());
  return c.innerText;
});
const code = Array.from(main.querySelectorAll('.cell_input pre'))
                  .filter(p => p.offsetParent !== null && !p.closest('details, .tag_hide-input, .tag_hide-cell'))
                  .map((p, i) => ({index: i, scrollWidth: p.scrollWidth, clientWidth: p.clientWidth,
                                   first: p.innerText.split('\\n')[0].slice(0, 60)}));
return {images: imgs, text: clone.innerText, math: document.querySelectorAll('mjx-container').length,
        errors: errors, tracebacks: main.innerText.includes('Traceback (most recent call last)'),
        columnWidth: columnWidth, tables: tables, outputs: outputs, code: code};
"""


def table_problems(tables: list[dict], column_width: float) -> list[str]:
    """Output tables wider than the text column, without a caption, or with bare missing values.

    Parameters
    ----------
    tables : list of dict
        One per output table: ``width`` (pixels), ``caption`` (its text, ``""`` if none),
        ``label`` (caption or first cell, for the message) and ``cells`` (the cells' texts).
    column_width : float
        Width of the text column in pixels.

    Returns
    -------
    list of str
        One message per problem.

    Examples
    --------
    >>> table_problems([{"width": 900, "caption": "", "label": "x", "cells": ["1", "NaN"]}], 700)
    ['output table 1 (x) is 900 px wide, the text column 700 px', 'output table 1 (x) has no caption', "output table 1 (x) shows a bare missing value: ['NaN']"]
    """
    out = []
    for i, t in enumerate(tables, 1):
        name = f"output table {i} ({t['label']})"
        if t["width"] > column_width + WIDTH_SLACK:
            out.append(f"{name} is {t['width']:.0f} px wide, the text column {column_width:.0f} px")
        if not t["caption"]:
            out.append(f"{name} has no caption")
        bare = sorted({c for c in t["cells"] if c in BARE_MISSING})
        if bare:
            out.append(f"{name} shows a bare missing value: {bare}")
    return out


def code_problems(blocks: list[dict]) -> list[str]:
    """Shown code cells whose lines the text column clips (a horizontal scroll bar).

    Parameters
    ----------
    blocks : list of dict
        One per visible code cell: ``scrollWidth`` and ``clientWidth`` of its ``pre`` (pixels),
        ``first`` (its first line, for the message) and ``index``.

    Examples
    --------
    >>> code_problems([{"index": 0, "scrollWidth": 900, "clientWidth": 700, "first": "x = 1"},
    ...                {"index": 1, "scrollWidth": 700, "clientWidth": 700, "first": "y = 2"}])
    ["shown code cell 1 ('x = 1') is clipped: 900 px of code in a 700 px column"]
    """
    return [f"shown code cell {b['index'] + 1} ({b['first']!r}) is clipped: {b['scrollWidth']:.0f} px of code "
            f"in a {b['clientWidth']:.0f} px column"
            for b in blocks if b["scrollWidth"] > b["clientWidth"] + WIDTH_SLACK]


def raw_inline_math(text: str) -> list[str]:
    """Inline math left as ``$…$`` in the visible text (MathJax did not typeset it).

    Examples
    --------
    >>> raw_inline_math("the merit $M_S$ of a subset, $5 and $6 per item")
    ['$M_S$']
    """
    return sorted(set(RAW_INLINE.findall(text)))


def raw_reprs(outputs: list[str]) -> list[str]:
    """Raw Python or pandas reprs in notebook outputs.

    Examples
    --------
    >>> raw_reprs(["Name: x, dtype: object", "<Foo object at 0x7f3a>", "fine"])
    ['dtype: object', 'object at 0x7f3a']
    """
    return sorted({m for text in outputs for m in RAW_REPR.findall(text)})


def redirect_target(html: str) -> str | None:
    """Where a page that is only a ``<meta http-equiv="Refresh">`` stub sends the browser.

    Such a page has nothing to check, and the browser leaves it while the check runs (its
    scripts then never answer), so it is skipped; its target is checked as a page of its own.

    Examples
    --------
    >>> redirect_target('<meta http-equiv="Refresh" content="0; url=book/intro.html" />')
    'book/intro.html'
    >>> redirect_target('<html><head><meta http-equiv="refresh" content="0; url=a.html"></head>'
    ...                 '<body>text</body></html>') is None
    True
    """
    match = REDIRECT.match(html)
    return match.group(1) if match else None


def serve(root: Path):
    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # keep the report readable
            pass

    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,2000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(SCRIPT_TIMEOUT)
    return driver


def check_page(driver, url: str, shot: Path) -> list[str]:
    driver.get(url)
    try:
        state = driver.execute_async_script(WAIT_FOR_MATHJAX)
    except TimeoutException:
        driver.save_screenshot(str(shot))
        return [f"MathJax did not finish typesetting within {SCRIPT_TIMEOUT} s"]
    facts = driver.execute_script(PAGE_FACTS)
    driver.save_screenshot(str(shot))
    problems = []
    if state.startswith("error") or state == "not loaded":
        problems.append(f"MathJax {state}")
    raw = RAW_TEX.findall(facts["text"])
    if raw:
        problems.append(f"raw TeX left on the page: {sorted(set(raw))}")
    inline = raw_inline_math(facts["text"])
    if inline:
        problems.append(f"inline math left as text: {inline[:5]}")
    problems += table_problems(facts["tables"], facts["columnWidth"])
    problems += code_problems(facts["code"])
    reprs = raw_reprs(facts["outputs"])
    if reprs:
        problems.append(f"raw Python repr in an output: {reprs[:5]}")
    broken = [i["src"] for i in facts["images"] if not i["ok"]]
    if broken:
        problems.append(f"images that did not load: {broken}")
    if facts["errors"] or facts["tracebacks"]:
        problems.append(f"execution error shown: {facts['errors'][:2] or 'Traceback'}")
    return problems


def main(argv: list[str]) -> int:
    root = Path(argv[0] if argv else "_build/html").resolve()
    if not (root / "index.html").exists():
        print(f"no built book at {root} (run `make html` first)", file=sys.stderr)
        return 1
    shots = root.parent / "screenshots"
    shots.mkdir(exist_ok=True)
    pages = sorted(p for p in root.rglob("*.html")
                   if p.name not in SKIP and not {"_static", "_sources", "_images"} & set(p.parts))
    redirects = {p: redirect_target(p.read_text(errors="replace")) for p in pages}
    pages = [p for p in pages if redirects[p] is None]
    failures = 0
    for page, target in redirects.items():
        if target is not None:
            ok = (page.parent / target).resolve() in pages
            print(f"{'ok' if ok else 'FAIL':4} {page.relative_to(root).as_posix()} sends the browser to {target}"
                  + ("" if ok else ", which is not a page of the book"))
            failures += not ok
    server = serve(root)
    port = server.server_address[1]
    driver = browser()
    try:
        for page in pages:
            rel = page.relative_to(root).as_posix()
            problems = check_page(driver, f"http://127.0.0.1:{port}/{rel}",
                                  shots / (rel.replace("/", "__").removesuffix(".html") + ".png"))
            status = "ok" if not problems else "FAIL"
            print(f"{status:4} {rel}" + "".join(f"\n     - {p}" for p in problems))
            failures += bool(problems)
    finally:
        driver.quit()
        server.shutdown()
    print(f"{len(redirects) - failures} pages ok, {failures} failed; "
          f"screenshots in {shots}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
