"""The proof report's HTML as a browser shows it (issue 13 item 5).

Headless Chromium renders ``docs/report/report.html``: the page lays out, its
inline script runs (the tables sort by a click on a header), and it reaches
nothing outside itself. Skipped when no Chromium is installed
(``apt-get install chromium``); ``docs/report/screenshot.png`` is one such
rendering, made by :func:`render_screenshot`.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "report" / "report.html"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")
SIZE = (1280, 2000)


def _browser() -> str | None:
    for name in BROWSERS:
        if found := shutil.which(name):
            return found
    return None


def _run(page: Path, *extra: str) -> str:
    browser = _browser()
    if browser is None:
        pytest.skip("no Chromium installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", *extra,
                               page.resolve().as_uri()],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def render_screenshot(page: Path, png: Path) -> Path:
    """Render ``page`` at 1280 x 2000 into ``png`` (how docs/report/screenshot.png is made)."""
    _run(page, f"--screenshot={png}", f"--window-size={SIZE[0]},{SIZE[1]}")
    return png


def _png_pixels(png: Path) -> tuple[int, int, bytes]:
    """Width, height and the raw (filtered) scanlines of a PNG, by the PNG spec's chunks."""
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    return width, height, zlib.decompress(idat)


def test_report_renders_with_text_and_figures(tmp_path):
    png = render_screenshot(PAGE, tmp_path / "shot.png")
    width, height, raw = _png_pixels(png)
    assert (width, height) == SIZE
    dark = sum(raw.count(bytes([v])) for v in range(0, 64))
    assert dark > 10_000  # text drawn on the white page, not a blank or error page


def test_report_tables_sort_on_click(tmp_path):
    """A click on the main-results table's "paper" header sorts its rows by paper name."""
    html = PAGE.read_text()
    first = re.search(r"<tbody>\s*<tr><td>([^<]*)</td>", html).group(1)
    assert first == "levine2020"  # the report lists the papers in PAPERS order
    clicked = tmp_path / "clicked.html"
    clicked.write_text(html.replace("</body>", "<script>document.querySelector('th').click()"
                                    "</script></body>"))
    dom = _run(clicked, "--dump-dom")
    assert 'title="click to sort"' in dom  # the page's own script ran
    rows = re.search(r"<tbody>(.*?)</tbody>", dom, re.S).group(1)
    papers = re.findall(r"<tr><td>([^<]*)</td>", rows)
    assert papers == sorted(papers) and papers[0] == "amsel" and len(set(papers)) == 5


def test_report_page_is_self_contained():
    html = PAGE.read_text()
    assert not re.search(r"""(?:src|href)=['"](?:https?:|//|file:)""", html)
    assert not re.search(r"""<img src=['"](?!data:image/png;base64,)""", html)
    assert "<script src" not in html and "<link" not in html
