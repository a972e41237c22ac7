"""The server's hot messages as JSON text, written without pydantic (the cost of every move).

``write_each(Model, [data, ...])`` gives, for each ``data``, byte for byte
``Model.model_validate(data).model_dump_json()`` at a fraction of the cost, for data of the
model's declared types (an ``int`` where the model says ``int``, a ``bool`` for a ``bool``;
an ``int`` for a ``float`` is written as pydantic writes it): the server builds these messages
from the core's views and events, which are. Pydantic's lax conversions (``"3"`` or ``3.0``
for an ``int``, ``0`` for a ``bool``) are not reproduced, and a model this cannot write
exactly (a field of type ``Any`` or a dict of untyped values, whose floats orjson would write
otherwise; an alias, a field or model serializer, a computed or excluded field) is refused
when its writer is built, with a ``TypeError``.

Each message goes through a *normalizer* derived from its model (from the models of
:mod:`perudo.server.protocol` and :mod:`perudo.server.payloads` themselves: their fields in
order, their defaults, nested models, the events' discriminator, float fields), which gives a
dict with the model's fields in the model's order and its defaults filled in, and that dict is
encoded by orjson (compiled): compact JSON, UTF-8 rather than ``\\u`` escapes, as pydantic
writes it. So the models stay the one description of the wire, and nothing here says what a
message holds.

Two fragments recur across seats and tables and are encoded once, kept in bounded caches keyed
by their notations and embedded as they are (``orjson.Fragment``): an action's structured form
(:class:`~perudo.server.payloads.ActionInfo`, a pure function of its notation, which
round-trips) and a list of them (a round's actions in every seat's view; a seat's other legal
actions).

Floats: orjson writes a float as pydantic does but for a positive exponent (``1e16``, where
pydantic writes ``1e+16``), and an ``int`` given to a ``float`` field is a float on the wire
(``1.0``): a float field's value goes through :func:`_float`, which writes those as pydantic
does.

What pydantic did on every message and this does not: refuse a field that the model does not
describe, or a value of the wrong type. The server builds these messages only from the core's
views and events, so that is a check of the server's own code, and it runs in the tests: with
``PERUDO_CHECK_WIRE=1`` (tests/conftest.py sets it) every message written here is also
validated by its model and compared with the model's own encoding, and a difference raises
:class:`WireMismatch`. tests/server/test_wirejson.py compares both over random games of every
preset.
"""

from __future__ import annotations

import math
import os
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

import orjson
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from .payloads import ActionInfo

__all__ = ["CHECK", "WireMismatch", "float_json", "write", "write_each"]

Conv = Callable[[Any], Any]
"""A field's value to what orjson writes as the model writes it."""

CHECK = os.environ.get("PERUDO_CHECK_WIRE", "") == "1"
"""Validate every written message with its model and compare the bytes (the tests)."""

_REQUIRED = object()
_CACHE_SIZE = 4096
_LISTS_SIZE = 1024
"""Lists of actions kept (a bidder's runs to 16 KB of text at six seats and 38 KB at ten seats
of ten dice: at most about 40 MB in all)."""
_EXACT_BELOW = 1e16
"""Finite floats under this (in size) are written by orjson as pydantic writes them."""


class WireMismatch(AssertionError):
    """``PERUDO_CHECK_WIRE``: a message written here differs from its model's own encoding."""


def float_json(x: float) -> str:
    """A float as pydantic writes it: Python's ``repr`` but for the exponent (``1e-7``, not
    ``1e-07``; ``0.00001`` for the exponent -5), and ``null`` for infinities and NaN."""
    if not math.isfinite(x):
        return "null"
    text = repr(x)
    if "e-0" not in text:
        return text
    mantissa, exponent = text.split("e-0")
    if exponent != "5":
        return f"{mantissa}e-{exponent}"
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    return f"{sign}0.0000{digits}"


def _float(v: Any) -> Any:
    """A float field's value: an int becomes a float (pydantic writes ``1.0``); a float that
    orjson would write otherwise than pydantic (a positive exponent, not finite) goes as
    pydantic's text."""
    if type(v) is int:
        v = float(v)
    if type(v) is float and not -_EXACT_BELOW < v < _EXACT_BELOW:
        return orjson.Fragment(float_json(v))
    return v


# -- an action's structured form, and lists of them: encoded once per notation ---------------

_info_bytes: dict[str, bytes] = {}
_infos_fragments: dict[tuple[str, ...], orjson.Fragment] = {}


def _info_text(d: Any) -> bytes:
    """An :class:`ActionInfo`'s JSON, kept by its notation (``text``)."""
    text = d["text"]
    found = _info_bytes.get(text)
    if found is None:
        if len(_info_bytes) >= _CACHE_SIZE:
            _info_bytes.clear()
        found = _info_bytes[text] = orjson.dumps(_normalizer(ActionInfo)(d))
    return found


def _action_info(d: Any) -> orjson.Fragment:
    """An :class:`ActionInfo`: a pure function of its notation (``text``), encoded once."""
    return orjson.Fragment(_info_text(d))


def _action_infos(v: Any) -> orjson.Fragment:
    """A list of :class:`ActionInfo`, encoded once per distinct list of notations (and found
    by its identity when the messages of one :func:`write_each` share it: a round's actions
    in every seat's view)."""
    seen = _seen.get(id(v))
    if seen is not None:
        return seen[1]
    key = tuple([d["text"] for d in v])
    found = _infos_fragments.get(key)
    if found is None:
        if len(_infos_fragments) >= _LISTS_SIZE:
            _infos_fragments.clear()
        found = _infos_fragments[key] = orjson.Fragment(b"[" + b",".join(map(_info_text, v)) + b"]")
    _seen[id(v)] = (v, found)
    return found


_seen: dict[int, tuple[Any, orjson.Fragment]] = {}
"""What :func:`_action_infos` and the events' writer met during the current
:func:`write_each`, by identity: each value kept beside its fragment, so that no other object
takes its id while it is here (emptied when the call returns)."""


# -- the normalizers, derived from the models -------------------------------------------------


def _list_conv(item: Conv) -> Conv:
    def each(v: Any) -> Any:
        return [None if x is None else item(x) for x in v]

    return each


def _union_conv(tp: Any, discriminator: str) -> Conv:
    by_tag: dict[str, Conv] = {}
    for member in get_args(tp):
        (tag,) = get_args(member.model_fields[discriminator].annotation)
        by_tag[tag] = _normalizer(member)

    def tagged(v: Any) -> Any:
        # An event every seat sees is one dict in all their updates: encoded once.
        seen = _seen.get(id(v))
        if seen is not None:
            return seen[1]
        found = orjson.Fragment(orjson.dumps(by_tag[v[discriminator]](v)))
        _seen[id(v)] = (v, found)
        return found

    return tagged


def _conv_of(tp: Any, info: FieldInfo | None = None) -> Conv | None:
    """What a value of a field annotated ``tp`` goes through (``None``: nothing, orjson
    writes it as it is, as pydantic would). ``None`` values never go through it."""
    origin = get_origin(tp)
    if origin is typing.Annotated:
        base, *meta = get_args(tp)
        for m in meta:
            if isinstance(m, FieldInfo) and isinstance(m.discriminator, str):
                return _union_conv(base, m.discriminator)
        return _conv_of(base)
    if info is not None and isinstance(info.discriminator, str):
        return _union_conv(tp, info.discriminator)
    if tp is ActionInfo:
        return _action_info
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _normalizer(tp)
    if origin is list:
        (item,) = get_args(tp)
        if item is ActionInfo:
            return _action_infos
        inner = _conv_of(item)
        return None if inner is None else _list_conv(inner)
    if origin in (typing.Union, types.UnionType):
        convs = [_conv_of(a) for a in get_args(tp) if a is not type(None)]
        if all(c is None for c in convs):
            return None
        if len(convs) == 1:
            return convs[0]
        raise TypeError(f"no writer for the union {tp!r} without a discriminator")
    if tp is float:
        return _float
    if origin is tuple:
        if any(_conv_of(a) is not None for a in get_args(tp) if a is not Ellipsis):
            raise TypeError(f"no writer for {tp!r}: a float in a tuple")
        return None
    if origin is dict:
        key, value = get_args(tp)
        if key is str and value in (str, int, bool):
            return None
        raise TypeError(f"no writer for {tp!r}: only dicts of str to str, int or bool")
    if tp in (str, int, bool) or origin is Literal:
        return None
    raise TypeError(f"no writer for {tp!r}")


_normalizers: dict[type[BaseModel], Conv] = {}


def _normalizer(model: type[BaseModel]) -> Conv:
    """A dict of ``model``'s fields (as its caller built it) to a dict of them in the model's
    order, defaults filled in, each value through its field's :func:`_conv_of`."""
    found = _normalizers.get(model)
    if found is not None:
        return found
    decorators = model.__pydantic_decorators__
    if model.model_computed_fields or decorators.field_serializers or decorators.model_serializers:
        raise TypeError(f"no writer for {model.__name__}: a computed field or a serializer")
    fields: list[tuple[str, Any, Conv | None]] = []
    for name, info in model.model_fields.items():
        if info.alias or info.serialization_alias or info.exclude:
            raise TypeError(f"no writer for {model.__name__}.{name}: an alias or an exclusion")
        default = _REQUIRED if info.is_required() else info.get_default(call_default_factory=True)
        fields.append((name, default, _conv_of(info.annotation, info)))
    names = tuple(name for name, _, _ in fields)
    found = _compiled(model, fields)
    if all(conv is None for _, _, conv in fields):
        build = found

        def plain(d: Any) -> Any:
            """A dict of plain fields already in order is written as it is."""
            return d if tuple(d) == names else build(d)

        found = plain
    _normalizers[model] = found
    return found


def _compiled(model: type[BaseModel], fields: list[tuple[str, Any, Conv | None]]) -> Conv:
    """The normalizer of a model, as one dict display (compiled once, as
    :mod:`dataclasses` compiles its ``__init__``): a loop over the fields cost a third of a
    move's messages."""
    scope: dict[str, Any] = {}
    items = []
    for i, (name, default, conv) in enumerate(fields):
        if default is _REQUIRED:
            get = f"d[{name!r}]"
        else:
            scope[f"df{i}"] = default
            get = f"d.get({name!r}, df{i})"
        if conv is None:
            items.append(f"{name!r}: {get}")
        else:
            scope[f"c{i}"] = conv
            items.append(f"{name!r}: None if (v{i} := {get}) is None else c{i}(v{i})")
    source = "def normal(d):\n    return {" + ", ".join(items) + "}\n"
    exec(compile(source, f"<wirejson normalizer of {model.__name__}>", "exec"), scope)
    normal: Conv = scope["normal"]
    return normal


def write_each(model: type[BaseModel], datas: list[dict[str, Any]]) -> list[str]:
    """``[model.model_validate(d).model_dump_json() for d in datas]``, byte for byte, for
    data of the model's declared types (with :data:`CHECK`, checked so:
    :class:`WireMismatch` otherwise)."""
    normal = _normalizer(model)
    try:
        texts = [orjson.dumps(normal(d)).decode() for d in datas]
    finally:
        _seen.clear()
    if CHECK:
        for data, text in zip(datas, texts, strict=True):
            expected = model.model_validate(data).model_dump_json()
            if text != expected:
                raise WireMismatch(
                    f"{model.__name__} written {text!r}, its model writes {expected!r}"
                )
    return texts


def write(model: type[BaseModel], data: dict[str, Any]) -> str:
    """One message: :func:`write_each` of one."""
    return write_each(model, [data])[0]
