"""The server's hot messages as JSON text, written without pydantic (the cost of every move).

``write_each(Model, [data, ...])`` gives, for each ``data``, byte for byte
``Model.model_validate(data).model_dump_json()`` (for data the model accepts) at a fraction
of the cost. The writers are derived from the models of :mod:`perudo.server.protocol` and
:mod:`perudo.server.payloads` themselves (their fields in order, their defaults, nested
models, the events' discriminator), so the models stay the one description of the wire, and
nothing here says what a message holds.

A move sends one ``update`` per seat, and the seats' messages share most of their fields
(the events everyone sees, the rules, this round's actions: whatever the core's
:func:`~perudo.core.view` gives every seat alike). Written together, a field's value equal
(``==``) across the messages is written once: equal values of one field's type are written
alike (:func:`_exact`: no floats, nothing untyped), so this shares text between seats without
deciding anything about who may see what (P-70 stays :func:`~perudo.core.view`'s). Values
are compared within one call only, on data its caller built for it.

Two fragments recur across tables too, and are kept in bounded caches keyed by their
notations: an action's structured form (:class:`~perudo.server.payloads.ActionInfo`, a pure
function of its notation, which round-trips) and a list of them (a bidder's ``legal_info``
runs to 150 bids and more).

What pydantic did on every message and this does not: refuse a field that the model does not
describe, or a value of the wrong type. The server builds these messages only from the core's
views and events, so that is a check of the server's own code, and it runs in the tests: with
``PERUDO_CHECK_WIRE=1`` (tests/conftest.py sets it) every message written here is also
validated by its model and compared with the model's own encoding, and a difference raises
:class:`WireMismatch`. tests/server/test_wirejson.py compares both over random games of every
preset.
"""

from __future__ import annotations

import json
import math
import os
import types
import typing
from collections.abc import Callable
from itertools import repeat
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from .payloads import ActionInfo

__all__ = ["CHECK", "WireMismatch", "float_json", "value_json", "write", "write_each"]

Writer = Callable[[Any], str]
EachWriter = Callable[[list[Any]], list[str]]

CHECK = os.environ.get("PERUDO_CHECK_WIRE", "") == "1"
"""Validate every written message with its model and compare the bytes (the tests)."""

_encode_str: Callable[[str], str] = json.encoder.encode_basestring
_REQUIRED = object()
_CACHE_SIZE = 4096
_LISTS_SIZE = 1024
"""Lists of actions kept (a bidder's runs to 16 KB of text: at most about 16 MB in all)."""


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


def value_json(v: Any) -> str:
    """Any JSON value (str, int, bool, ``None``, float, list, tuple, dict of str keys) as
    pydantic writes it: compact, UTF-8 rather than ``\\u`` escapes."""
    t = type(v)
    if t is str:
        return _encode_str(v)
    if t is int:
        return int.__repr__(v)
    if v is None:
        return "null"
    if t is bool:
        return "true" if v else "false"
    if t is float:
        return float_json(v)
    if t is list or t is tuple:
        return "[" + ",".join(map(value_json, v)) + "]"
    if t is dict:
        return "{" + ",".join(_encode_str(k) + ":" + value_json(x) for k, x in v.items()) + "}"
    raise TypeError(f"no JSON for a {t.__name__} on the wire: {v!r}")


def _float(v: Any) -> str:
    """A float field (pydantic makes an int given there a float: ``1.0``)."""
    return float_json(float(v)) if type(v) is int else value_json(v)


def _exact(tp: Any) -> bool:
    """Whether values of type ``tp`` that are equal (``==``) are written alike: no float
    (``1 == 1.0``, ``0.0 == -0.0``) and nothing untyped anywhere inside."""
    origin = get_origin(tp)
    if tp in (str, int, bool, type(None)) or origin is Literal:
        return True
    if origin is typing.Annotated:
        return _exact(get_args(tp)[0])
    if origin in (list, tuple, typing.Union, types.UnionType):
        return all(_exact(a) for a in get_args(tp) if a is not Ellipsis)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return all(_exact(f.annotation) for f in tp.model_fields.values())
    return False


def _scalar(tp: Any) -> bool:
    """A string, int, boolean, ``None`` or literal, or an optional one."""
    origin = get_origin(tp)
    if tp in (str, int, bool, type(None)) or origin is Literal:
        return True
    if origin in (typing.Union, types.UnionType):
        return all(_scalar(a) for a in get_args(tp))
    return False


# -- one value ------------------------------------------------------------------------------


def _list_writer(item: Writer) -> Writer:
    if item is value_json:
        return value_json

    def write_list(v: Any) -> str:
        return "[" + ",".join(map(item, v)) + "]"

    return write_list


def _optional_writer(inner: Writer) -> Writer:
    if inner is value_json:
        return value_json

    def write_optional(v: Any) -> str:
        return "null" if v is None else inner(v)

    return write_optional


def _union_writer(tp: Any, discriminator: str) -> Writer:
    by_tag: dict[str, Writer] = {}
    for member in get_args(tp):
        (tag,) = get_args(member.model_fields[discriminator].annotation)
        by_tag[tag] = _one(member)

    def write_tagged(v: Any) -> str:
        return by_tag[v[discriminator]](v)

    return write_tagged


def _writer_of(tp: Any, info: FieldInfo | None = None) -> Writer:
    """The writer of one value of a field annotated ``tp``."""
    origin = get_origin(tp)
    if origin is typing.Annotated:
        base, *meta = get_args(tp)
        for m in meta:
            if isinstance(m, FieldInfo) and isinstance(m.discriminator, str):
                return _union_writer(base, m.discriminator)
        return _writer_of(base)
    if info is not None and isinstance(info.discriminator, str):
        return _union_writer(tp, info.discriminator)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _one(tp)
    if origin is list:
        (item,) = get_args(tp)
        if item is ActionInfo:
            return _action_infos
        if _scalar(item):
            return _Keyed(_list_writer(_writer_of(item)))
        return _list_writer(_writer_of(item))
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return _optional_writer(_writer_of(args[0]))
        if all(_writer_of(a) is value_json for a in args):
            return value_json
        raise TypeError(f"no writer for the union {tp!r} without a discriminator")
    if tp is float:
        return _float
    if tp in (str, int, bool, Any) or origin in (tuple, dict, Literal):
        return value_json
    raise TypeError(f"no writer for {tp!r}")


class _Keyed:
    """Texts of flat lists of scalars (hands, a legal list's notations), kept in a bounded
    cache keyed by the list's items as a tuple (an immutable key)."""

    __slots__ = ("texts", "write")

    def __init__(self, write: Writer) -> None:
        self.write = write
        self.texts: dict[tuple[Any, ...], str] = {}

    def __call__(self, v: Any) -> str:
        key = tuple(v)
        text = self.texts.get(key)
        if text is None:
            if len(self.texts) >= _CACHE_SIZE:
                self.texts.clear()
            text = self.texts[key] = self.write(v)
        return text


_ones: dict[type[BaseModel], Writer] = {}


def _one(model: type[BaseModel]) -> Writer:
    """The writer of one value of ``model`` (a dict of its fields)."""
    found = _ones.get(model)
    if found is None:
        if model is ActionInfo:
            found = _action_info
        else:
            each = _each(model)

            def found(d: Any) -> str:
                return each([d])[0]

        _ones[model] = found
    return found


_info_each: list[EachWriter] = []
_info_cache: dict[str, str] = {}
_infos_cache: dict[tuple[str, ...], str] = {}


def _action_info(d: Any) -> str:
    """An :class:`ActionInfo`: a pure function of its notation (``text``), written once."""
    text = d["text"]
    found = _info_cache.get(text)
    if found is None:
        if not _info_each:
            _info_each.append(_model_each(ActionInfo))
        if len(_info_cache) >= _CACHE_SIZE:
            _info_cache.clear()
        found = _info_cache[text] = _info_each[0]([d])[0]
    return found


def _action_infos(v: Any) -> str:
    """A list of :class:`ActionInfo`, written once per distinct list of notations."""
    key = tuple([d["text"] for d in v])
    found = _infos_cache.get(key)
    if found is None:
        if len(_infos_cache) >= _LISTS_SIZE:
            _infos_cache.clear()
        found = _infos_cache[key] = "[" + ",".join(map(_action_info, v)) + "]"
    return found


# -- several messages at once -----------------------------------------------------------------


def _shared(write: Writer) -> EachWriter:
    """Each value written, equal values once (for a type :func:`_exact` says is written alike
    when equal)."""

    def each(values: list[Any]) -> list[str]:
        first = values[0]
        text = write(first)
        if len(values) == 1:
            return [text]
        seen: list[tuple[Any, str]] = [(first, text)]
        out = [text]
        for v in values[1:]:
            if v == first:
                out.append(text)
                continue
            for old, old_text in seen:
                if v == old:
                    out.append(old_text)
                    break
            else:
                new = write(v)
                seen.append((v, new))
                out.append(new)
        return out

    return each


def _apart(write: Writer) -> EachWriter:
    def each(values: list[Any]) -> list[str]:
        return [write(v) for v in values]

    return each


def _nested(model_each: EachWriter) -> EachWriter:
    """An optional nested model whose fields are shared field by field (a seat's view)."""

    def each(values: list[Any]) -> list[str]:
        present = [v for v in values if v is not None]
        if not present:
            return ["null"] * len(values)
        texts = iter(model_each(present))
        return ["null" if v is None else next(texts) for v in values]

    return each


def _field_each(tp: Any, info: FieldInfo) -> EachWriter:
    union = get_origin(tp) in (typing.Union, types.UnionType)
    args = [a for a in get_args(tp) if a is not type(None)] if union else [tp]
    if len(args) == 1:
        model = args[0]
        if (
            isinstance(model, type)
            and issubclass(model, BaseModel)
            and model is not ActionInfo
            and not all(_scalar(f.annotation) for f in model.model_fields.values())
        ):
            return _nested(_each(model))
    write = _writer_of(tp, info)
    return _shared(write) if _exact(tp) else _apart(write)


def _run_each(fields: list[tuple[str, Any]], prefix: str) -> EachWriter:
    keys = [("" if i == 0 else ",") + _encode_str(name) + ":" for i, (name, _) in enumerate(fields)]
    names = [name for name, _ in fields]
    texts: dict[tuple[Any, ...], str] = {}

    def each(values: list[tuple[Any, ...]]) -> list[str]:
        out = []
        for v in values:
            text = texts.get(v)
            if text is None:
                for name, x in zip(names, v, strict=True):
                    if x is _REQUIRED:
                        raise KeyError(f"{name} is required")
                if len(texts) >= _CACHE_SIZE:
                    texts.clear()
                text = texts[v] = prefix + "".join(
                    k + value_json(x) for k, x in zip(keys, v, strict=True)
                )
            out.append(text)
        return out

    return each


_eaches: dict[type[BaseModel], EachWriter] = {}


def _each(model: type[BaseModel]) -> EachWriter:
    found = _eaches.get(model)
    if found is None:
        found = _eaches[model] = _model_each(model)
    return found


def _model_each(model: type[BaseModel]) -> EachWriter:
    """Each field in turn across the messages; a run of scalar fields (:func:`_scalar`) as
    one, its text (keys included) kept in a bounded cache keyed by the run's values."""
    segments: list[tuple[list[tuple[str, Any]], str, EachWriter | None]] = []
    run: list[tuple[str, Any]] = []
    for i, (name, info) in enumerate(model.model_fields.items()):
        default = _REQUIRED if info.is_required() else info.get_default(call_default_factory=True)
        if _scalar(info.annotation):
            if not run:
                segments.append((run, "{" if i == 0 else ",", None))
            run.append((name, default))
            continue
        run = []
        prefix = ("{" if i == 0 else ",") + _encode_str(name) + ":"
        segments.append(([(name, default)], prefix, _field_each(info.annotation, info)))
    # Per segment: the run's fields (a run) or one field's (name, default), its prefix, and
    # the writer of its values across the messages.
    plan: list[tuple[bool, list[tuple[str, Any]], str, EachWriter]] = [
        (True, fields, "", _run_each(fields, prefix))
        if each is None
        else (False, fields, prefix, each)
        for fields, prefix, each in segments
    ]

    def write_each(ds: list[Any]) -> list[str]:
        n = len(ds)
        columns: list[Any] = []
        for is_run, fields, prefix, each in plan:
            if is_run:
                values = [tuple([d.get(f, df) for f, df in fields]) for d in ds]
            else:
                ((name, default),) = fields
                if default is _REQUIRED:
                    values = [d[name] for d in ds]
                else:
                    values = [d.get(name, default) for d in ds]
                columns.append(repeat(prefix, n))
            columns.append(each(values))
        columns.append(repeat("}", n))
        return ["".join(row) for row in zip(*columns, strict=True)]

    return write_each


def write_each(model: type[BaseModel], datas: list[dict[str, Any]]) -> list[str]:
    """``[model.model_validate(d).model_dump_json() for d in datas]``, byte for byte, for
    data the model accepts (with :data:`CHECK`, checked so: :class:`WireMismatch`
    otherwise), the fields equal across ``datas`` written once."""
    if not datas:
        return []
    texts = _each(model)(datas)
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
