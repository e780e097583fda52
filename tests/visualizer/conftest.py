"""What the browser tests of the visualizer's pages share: the system Chromium driven by
Playwright (never `playwright install`: it downloads a browser), skipped with the reason when
Chromium, Graphviz's dot or Playwright is missing."""
from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()
