"""A practice set printed as a lesson file's ``steps:`` (``teach lessons practice``), ready to paste into one."""

from __future__ import annotations


def to_yaml(steps: list[dict]) -> str:
    """The steps as a lesson file's ``steps:`` list, diagrams as literal blocks (readable and pasteable)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper: yaml.SafeDumper, value: str):
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return yaml.dump({"steps": steps}, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=120)
