"""The command line the in-process regression runners share (``reading_suite``, ``connection_suite``)."""

from __future__ import annotations

import argparse
from pathlib import Path


def suite_parser(seconds: float, seconds_help: str) -> argparse.ArgumentParser:
    """The regression file and the options every runner takes; a runner may add its own before parsing."""
    ap = argparse.ArgumentParser()
    ap.add_argument("file", type=Path)
    ap.add_argument("--only", default="", help="comma-separated test numbers")
    ap.add_argument("--slow", type=float, default=1.0, help="flag tests slower than this many seconds")
    ap.add_argument("--quiet", action="store_true", help="only the summary and failures")
    ap.add_argument("--seconds", type=float, default=seconds, help=seconds_help)
    return ap


def parse_suite(ap: argparse.ArgumentParser, argv=None) -> argparse.Namespace:
    """The options, with ``only`` as a set of test numbers and the file's path absolute (a runner moves into
    the file's folder, where its ``loadsgf`` paths start)."""
    args = ap.parse_args(argv)
    args.only = set(filter(None, args.only.split(",")))
    args.file = args.file.resolve()
    return args


def apply_limits(text: str) -> None:
    """Make every ``reading.Limits()`` built from now on start from ``text``'s values ("threelib_depth=9,verify=0"):
    the GTP engine builds its own limits (with its clock), so the defaults are what a trial must change."""
    if not text:
        return
    import dataclasses

    from teach.go import reading

    values = dict(item.split("=") for item in text.split(","))
    base = reading.Limits()
    changed = dataclasses.replace(base, **{k: type(getattr(base, k))(v) for k, v in values.items()})
    reading.Limits.__init__.__defaults__ = tuple(getattr(changed, f.name) for f in dataclasses.fields(base))
