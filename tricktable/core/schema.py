"""The JSON Schema of an observation's wire shape, generated from its dataclass.

The page receives ``Observation.to_json()``; this module describes that shape from
the observation's fields, so the documentation cannot drift from the code:

* field types map to JSON types (``int`` → integer, ``tuple[X, ...]`` → array,
  a nested dataclass → an object in ``$defs``, an ``Enum`` → its wire keys: the
  ``key`` property where it has one, else its values);
* a field annotated with a ``WireType`` (cards and suits are ids in Python and
  texts on the wire) takes that type;
* a field whose default is ``None`` is left out of the wire while it is ``None``
  (so it is not required); every other field is always there;
* a mapping annotated ``FLATTENED`` is merged into its parent object;
* a field annotated ``MERGED`` (a dataclass, a union of them, or ``None``) sends
  its fields as keys of the parent object: they are described there, not
  required (a game has the part or not);
* a ``NamedTuple`` is a tuple in Python and an object of its fields on the wire;
* a field typed with a base class of the described observation (a match's
  previous deal is an ``Observation``) is described as that observation;
* where ``to_json`` sends something other than the fields, the class says so:
  ``wire_hidden`` names fields it does not send, ``wire_properties`` maps the
  keys it sends besides them to their types (always sent); ``Literal`` types
  become an ``enum``.

``tricktable schema GAME`` prints a game's schema.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class WireType:
    """How a field travels when its Python type says something else."""

    type: str
    description: str


FLATTENED = WireType("flattened", "merged into the parent object")
MERGED = WireType("merged", "a part whose fields are keys of the parent object")


def json_schema(cls: type) -> dict[str, Any]:
    """The draft 2020-12 schema of ``cls().to_json()`` for an observation class."""
    defs: dict[str, Any] = {}
    root = _object(cls, defs, cls)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": cls.__name__, **root, "$defs": defs}


def _object(cls: type, defs: dict[str, Any], root: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    properties: dict[str, Any] = {}
    required: list[str] = []
    open_ended = False
    hidden: frozenset[str] = getattr(cls, "wire_hidden", frozenset())
    for field in dataclasses.fields(cls):
        if field.name in hidden:
            continue
        hint = hints[field.name]
        metadata = getattr(hint, "__metadata__", ())
        if FLATTENED in metadata:
            open_ended = True
            continue
        if MERGED in metadata:
            for part in typing.get_args(typing.get_args(hint)[0]) or (typing.get_args(hint)[0],):
                if part is not type(None):
                    properties.update(_object(part, defs, root)["properties"])
            continue
        properties[field.name] = _schema(hint, defs, root)
        if field.default is not None:
            required.append(field.name)
    for name, hint in getattr(cls, "wire_properties", {}).items():
        properties[name] = _schema(hint, defs, root)
        required.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required,
                              "additionalProperties": open_ended}
    if cls.__doc__:
        schema["description"] = " ".join(cls.__doc__.split())
    return schema


def _schema(hint: Any, defs: dict[str, Any], root: type) -> dict[str, Any]:
    wire = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, WireType)]
    if wire:
        return {"type": wire[0].type, "description": wire[0].description}
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is type(None):
        return {"type": "null"}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema(arg, defs, root) for arg in args]}
    if hint is Any:
        return {}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        keys = [member.key if hasattr(member, "key") else member.value for member in hint]
        return {"enum": keys}
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):  # a NamedTuple
        fields = typing.get_type_hints(hint, include_extras=True)
        return {"type": "object", "properties": {name: _schema(fields[name], defs, root) for name in hint._fields},
                "required": list(hint._fields), "additionalProperties": False}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema(args[0], defs, root)}
        items = [_schema(arg, defs, root) for arg in args]
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
    if origin in (Mapping, dict):
        return {"type": "object", "additionalProperties": _schema(args[1], defs, root) if args else {}}
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        if issubclass(root, hint):
            return {"$ref": "#"}
        if hint.__name__ not in defs:
            defs[hint.__name__] = {}  # placeholder: a dataclass may refer to itself
            defs[hint.__name__] = _object(hint, defs, root)
        return {"$ref": f"#/$defs/{hint.__name__}"}
    raise TypeError(f"no JSON Schema for {hint!r}")


_SCALARS = {bool: "boolean", int: "integer", float: "number", str: "string"}
