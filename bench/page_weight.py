"""Page weight of the puzzle page: the HTML plus every asset it references, uncompressed.

A cheap tablet on a school network pays for every byte; the target is 100 KB for a whole puzzle page (OGS's
learn pages load megabytes of JavaScript). The page is fetched in-process with Flask's test client, signed in as
a demo kid, on a throw-away SQLite database migrated like a real one. Assets are found the way a browser finds
them: <link>, <script>, <img>, <source>, <use>, inline style url(), CSS url() and @import, and static paths named
in scripts (sounds, pictures fetched later). An address on another host is listed as an error: the app must not
depend on a CDN.

    .venv/bin/python bench/page_weight.py [--lesson ID] [--step N] [--lang zh|en]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = 100 * 1024
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")
# static files a script may load later (sounds, pictures, fonts): quoted paths under /static/
SCRIPT_STATIC = re.compile(r"""['"`](/static/[^'"`\s]+)['"`]""")


class References(HTMLParser):
    """Every address the page makes the browser fetch (not links the kid may follow)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []  # (kind, address)
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("href") and set((a.get("rel") or "").split()) & {
                "stylesheet", "icon", "preload", "manifest", "apple-touch-icon", "modulepreload"}:
            self.found.append(("link", a["href"]))
        elif tag == "script":
            if a.get("src"):
                self.found.append(("script", a["src"]))
            else:
                self._in_script = True
        elif tag in ("img", "source", "audio", "video", "embed", "iframe", "input") and a.get("src"):
            self.found.append((tag, a["src"]))
        elif tag in ("use", "image") and (a.get("href") or a.get("xlink:href")):
            ref = a.get("href") or a.get("xlink:href")
            if not ref.startswith("#"):
                self.found.append((tag, ref.split("#")[0]))
        if tag in ("img", "source") and a.get("srcset"):
            for part in a["srcset"].split(","):
                if part.strip():
                    self.found.append((tag, part.split()[0]))
        if a.get("style"):
            for m in CSS_URL.finditer(a["style"]):
                self.found.append(("style", m.group(1) or m.group(2)))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.inline_scripts.append(data)


def signed_in_client(app, lesson_id: str, step: int):
    """The demo kid 明明, signed in with class code, avatar and pictures, with ``lesson_id`` opened up to ``step``."""
    import sqlalchemy as sa

    from teach.models import LessonProgress, User
    from teach.web.demo import create_demo
    from teach.web.extensions import db

    with app.app_context():
        create_demo()
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        db.session.add(LessonProgress(kid_id=kid.id, lesson_id=lesson_id, step=step))
        db.session.commit()
        kid_id = kid.id
    client = app.test_client()
    page = client.get(f"/kids/CAT234/{kid_id}").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    r = client.post(f"/kids/CAT234/{kid_id}", data={"pictures": "cat,fish,moon", "csrf_token": token})
    assert r.status_code == 302 and r.headers["Location"].endswith("/learn/"), "the demo kid could not sign in"
    return client


def first_capture_puzzle(app) -> tuple[str, int]:
    from teach.web import content

    with app.app_context():
        topic = content.catalog().topic("capture")
        lesson = sorted(topic.lessons, key=lambda l: (l.order, l.id))[0]
        return lesson.id, next(i for i, s in enumerate(lesson.steps) if s.kind == "puzzle")


def weigh(client, page_path: str, lang: str) -> tuple[list[tuple[str, str, int]], list[str]]:
    """[(kind, address, bytes)] for the page and each asset once, and the addresses on other hosts."""
    headers = {"Accept-Language": lang, "Accept-Encoding": "identity"}
    r = client.get(page_path, headers=headers)
    assert r.status_code == 200, f"{page_path} answered {r.status_code}"
    html = r.get_data()
    rows = [("page", page_path, len(html))]
    refs = References()
    refs.feed(html.decode("utf-8"))
    queue = list(refs.found)
    for script in refs.inline_scripts:
        queue += [("script-ref", m.group(1)) for m in SCRIPT_STATIC.finditer(script)]
    seen, elsewhere = {page_path}, []
    while queue:
        kind, ref = queue.pop(0)
        if ref.startswith("data:"):
            continue
        address = urljoin("http://localhost" + page_path, ref)
        parts = urlsplit(address)
        if parts.netloc != "localhost":
            elsewhere.append(ref)
            continue
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        if path in seen:
            continue
        seen.add(path)
        asset = client.get(path, headers=headers)
        body = asset.get_data()
        asset.close()
        if asset.status_code != 200:
            elsewhere.append(f"{ref} (HTTP {asset.status_code})")
            continue
        rows.append((kind, path, len(body)))
        text = body.decode("utf-8", "replace")
        if path.endswith(".css"):
            queue += [("css-ref", urljoin(path, m.group(1) or m.group(2))) for m in CSS_URL.finditer(text)]
        elif path.endswith(".js"):
            queue += [("script-ref", m.group(1)) for m in SCRIPT_STATIC.finditer(text)]
    return rows, elsewhere


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lesson", help="lesson id (default: the first lesson of the capture topic)")
    ap.add_argument("--step", type=int, help="step index (default: the lesson's first puzzle)")
    ap.add_argument("--lang", default="zh", choices=("zh", "en"))
    args = ap.parse_args(argv)

    from flask_migrate import upgrade

    from teach.web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/weight.sqlite", "SECRET_KEY": "bench",
                          "RATELIMIT_STORAGE_URI": "memory://"})
        with app.app_context():
            upgrade()
        lesson_id, step = first_capture_puzzle(app)
        lesson_id, step = args.lesson or lesson_id, args.step if args.step is not None else step
        client = signed_in_client(app, lesson_id, step)
        rows, elsewhere = weigh(client, f"/learn/{lesson_id}/{step}", args.lang)
        with app.app_context():
            from teach.web.extensions import db

            db.engine.dispose()

    total = sum(size for _, _, size in rows)
    width = max(len(path) for _, path, _ in rows)
    print(f"puzzle page {lesson_id} step {step} ({args.lang}), uncompressed")
    print(f"{'kind':<11}{'resource':<{width + 2}}{'bytes':>9}")
    for kind, path, size in rows:
        print(f"{kind:<11}{path:<{width + 2}}{size:>9,}")
    print(f"{'total':<11}{'':<{width + 2}}{total:>9,}  ({total / 1024:.1f} KB; target ≤ {TARGET // 1024} KB: "
          f"{'met' if total <= TARGET else 'MISSED'})")
    for ref in elsewhere:
        print(f"NOT SERVED LOCALLY: {ref}")
    return 0 if total <= TARGET and not elsewhere else 1


if __name__ == "__main__":
    sys.exit(main())
