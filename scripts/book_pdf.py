"""The book as one PDF: ``make pdf`` (on demand, not in CI).

``make pdf`` first builds the whole book as one HTML page (Sphinx's ``singlehtml`` builder, from
the notebooks' committed outputs, so nothing is executed); this script then serves that page,
opens it in the headless Chromium that ``make check-html`` uses, waits until MathJax has
typeset every formula, and prints it to PDF through the browser's own print engine
(Chrome's DevTools command ``Page.printToPDF``).  It needs no TeX
installation, only the packages the browser check installs.

Usage: ``python scripts/book_pdf.py _build/singlehtml _build/fsbook.pdf``
"""
from __future__ import annotations

import base64
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_html import WAIT_FOR_MATHJAX, browser, serve  # noqa: E402

#: A4 in centimetres, with margins that keep the 740 px column and its tables whole
PAGE_WIDTH, PAGE_HEIGHT, MARGIN = 21.0, 29.7, 1.5


def book_page(site: Path) -> str:
    """The path of the one page of the book under ``site``: a copy at the root of the target of
    ``index.html``'s redirect (Jupyter Book's root document, ``book/intro.html``), or
    ``index.html`` itself."""
    index = site / "index.html"
    if not index.is_file():
        raise SystemExit(f"no {index}: build it first with `make pdf` (jupyter-book build . --builder singlehtml)")
    target = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', index.read_text(encoding="utf-8"))
    if not target:
        return "index.html"
    # the single page links its assets from the site's root (_static/, _images/), not from its own
    # folder: a copy at the root loads them
    (site / "book.html").write_text((site / target.group(1)).read_text(encoding="utf-8"), encoding="utf-8")
    return "book.html"


def print_book(site: Path, pdf: Path) -> int:
    """Print the book's one page under ``site`` to ``pdf``; returns the number of PDF pages."""
    page = book_page(site)
    server = serve(site)
    driver = browser()
    try:
        driver.set_script_timeout(600)            # the whole book's formulas typeset at once
        driver.command_executor.client_config.timeout = 1800   # printing hundreds of pages
        driver.set_page_load_timeout(1800)
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/{page}")
        state = driver.execute_async_script(WAIT_FOR_MATHJAX)
        if state.startswith("error") or state == "not loaded":
            raise SystemExit(f"MathJax did not typeset the book: {state}")
        # DevTools' own command: chromedriver's print waits only 10 s for the renderer
        inch = 2.54
        reply = driver.execute_cdp_cmd("Page.printToPDF", {
            "paperWidth": PAGE_WIDTH / inch, "paperHeight": PAGE_HEIGHT / inch, "printBackground": True,
            **{f"margin{side}": MARGIN / inch for side in ("Top", "Bottom", "Left", "Right")}})
        data = base64.b64decode(reply["data"])
    finally:
        driver.quit()
        server.shutdown()
    pdf.parent.mkdir(parents=True, exist_ok=True)
    pdf.write_bytes(data)
    return data.count(b"/Type /Page") - data.count(b"/Type /Pages")


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    site, pdf = Path(args[0]), Path(args[1])
    pages = print_book(site, pdf)
    print(f"{pdf}: {pages} pages, {pdf.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
