"""Look at the golden posts as a reader would: every post rendered to HTML (Markdown with
markdown-it-py, BBCode with the ``bbcode`` package, text in a <pre>) and screenshotted with
headless Chromium at a phone's width and a desktop's.

    .venv/bin/python scripts/preview_posts.py [--out DIR] [--only island.zh] [--width 390]

Writes DIR/<scenario>/<post>.html and .png (default DIR: ./data/preview, not committed).
Needs the dev extra (markdown-it-py, bbcode) and Debian's chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import html
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.publish.render.golden_posts import GOLDEN  # noqa: E402
from tests.publish.render.html_preview import RENDERERS  # noqa: E402

EXTS = {"bbcode": "bbcode", "md": "markdown", "txt": "text"}
STYLE = """
body { font-family: "Noto Sans CJK SC", "Noto Sans", sans-serif; margin: 0; background: #eee; }
.post { background: #fff; margin: 8px; padding: 10px 12px; border: 1px solid #ccc; }
.post h4 { margin: 0 0 6px; color: #888; font: 12px monospace; }
table { border-collapse: collapse; max-width: 100%; display: block; overflow-x: auto; }
td, th { border: 1px solid #bbb; padding: 2px 6px; white-space: nowrap; }
blockquote { margin: 4px 0; padding: 2px 8px; border-left: 3px solid #ccc; color: #555; }
pre, code { font-family: "Noto Sans Mono CJK SC", monospace; white-space: pre-wrap;
            word-break: break-all; }
"""


def page(title: str, posts: list[tuple[str, str]]) -> str:
    blocks = "\n".join(
        f'<div class="post"><h4>{html.escape(name)}</h4>{body}</div>' for name, body in posts
    )
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body>{blocks}</body></html>"
    )


def screenshot(chromium: str, source: Path, target: Path, width: int) -> None:
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={width},2400",
            f"--screenshot={target}",
            source.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "preview")
    parser.add_argument("--only", help="one scenario folder, e.g. team_battle.zh")
    parser.add_argument("--width", type=int, default=390, help="viewport width (390: a phone)")
    parser.add_argument("--no-screenshots", action="store_true")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    for folder in sorted(GOLDEN.iterdir()):
        if args.only and folder.name != args.only:
            continue
        out = args.out / folder.name
        out.mkdir(parents=True, exist_ok=True)
        stems = sorted(
            {p.stem for p in folder.iterdir() if p.suffix[1:] in EXTS and p.stem[0].isdigit()}
        )
        for stem in stems:
            rendered = []
            for ext, fmt in EXTS.items():
                source = folder / f"{stem}.{ext}"
                rendered.append((f"{stem} · {fmt}", RENDERERS[fmt](source.read_text("utf-8"))))
            target = out / f"{stem}.html"
            target.write_text(page(stem, rendered), encoding="utf-8")
            if not args.no_screenshots:
                screenshot(chromium, target, out / f"{stem}.png", args.width)
        print(f"{out}: {len(stems)} posts")


if __name__ == "__main__":
    main()
