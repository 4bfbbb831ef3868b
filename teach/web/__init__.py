"""The web application (placeholder home page until the kid's app lands)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, render_template

ROOT = Path(__file__).resolve().parent.parent.parent


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(SECRET_KEY="dev")
    if test_config:
        app.config.update(test_config)

    @app.get("/")
    def home():
        return render_template("home.html")

    return app
