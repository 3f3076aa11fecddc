"""Open every page of the built book in headless Chromium and check it.

For each page: MathJax has typeset every formula (no raw TeX is left in the
visible text), every image has loaded, and no notebook output shows an
execution error.  A screenshot of each page is saved under
``_build/screenshots/``.  Exit status 1 lists every failure.

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
from selenium.webdriver.chrome.service import Service

#: TeX that MathJax would have replaced had it run
RAW_TEX = re.compile(r"(\$\$|\\begin\{|\\frac|\\mathbb|\\sum_|\\lVert|\\operatorname|\\\(|\\\[)")
SKIP = {"search.html", "genindex.html", "py-modindex.html"}

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
return {images: imgs, text: clone.innerText, math: document.querySelectorAll('mjx-container').length,
        errors: errors, tracebacks: main.innerText.includes('Traceback (most recent call last)')};
"""


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
    driver.set_script_timeout(30)
    return driver


def check_page(driver, url: str, shot: Path) -> list[str]:
    driver.get(url)
    state = driver.execute_async_script(WAIT_FOR_MATHJAX)
    facts = driver.execute_script(PAGE_FACTS)
    driver.save_screenshot(str(shot))
    problems = []
    if state.startswith("error") or state == "not loaded":
        problems.append(f"MathJax {state}")
    raw = RAW_TEX.findall(facts["text"])
    if raw:
        problems.append(f"raw TeX left on the page: {sorted(set(raw))}")
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
    server = serve(root)
    port = server.server_address[1]
    driver = browser()
    failures = 0
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
    print(f"{len(pages) - failures} pages ok, {failures} failed; screenshots in {shots}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
