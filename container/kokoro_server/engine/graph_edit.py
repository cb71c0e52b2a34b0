"""Editing an ONNX graph in place: lookups over it, new constants and nodes, and a tidy commit.

The engine's graph rewrites (``float_graph``, ``batch_graph`` and its parts) add nodes beside the ones
they replace and rewire the consumers; ``commit`` then drops what nothing uses any more and puts the
nodes back in an order ONNX Runtime accepts.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import numpy as np
import onnx
from numpy.typing import ArrayLike, DTypeLike
from onnx import helper, numpy_helper


class GraphEditError(RuntimeError):
    """The graph does not have the shape an edit expects; the message says what was missing."""


class GraphEdit:
    """One model's graph under edit. New names start with ``prefix``, so they never collide with the export's."""

    def __init__(self, model: onnx.ModelProto, prefix: str) -> None:
        self.model = model
        self.graph = model.graph
        self._prefix = prefix
        self._count = 0
        self._constants: dict[tuple[str, tuple[int, ...], bytes], str] = {}
        self._pending: list[onnx.NodeProto] = []
        self.initializers: dict[str, onnx.TensorProto] = {}
        self.producer: dict[str, onnx.NodeProto] = {}
        self.consumers: dict[str, list[onnx.NodeProto]] = defaultdict(list)
        self.refresh()

    def refresh(self) -> None:
        self.initializers = {tensor.name: tensor for tensor in self.graph.initializer}
        self.producer = {name: node for node in self.graph.node for name in node.output}
        self.consumers = defaultdict(list)
        for node in self.graph.node:
            for name in node.input:
                self.consumers[name].append(node)

    def _name(self, kind: str) -> str:
        self._count += 1
        return f"{self._prefix}/{kind}_{self._count}"

    def const(self, value: ArrayLike, dtype: DTypeLike = np.int64) -> str:
        """An initializer holding ``value`` (one per distinct value)."""
        array = np.asarray(value, dtype=dtype)
        key = (array.dtype.str, array.shape, array.tobytes())
        if key not in self._constants:
            name = self._name("const")
            self.graph.initializer.append(numpy_helper.from_array(array, name))
            self._constants[key] = name
        return self._constants[key]

    def node(self, op_type: str, inputs: list[str], **attributes: Any) -> str:
        """A new node (added at ``commit``); returns its output."""
        name = self._name(op_type)
        self._pending.append(helper.make_node(op_type, inputs, [f"{name}:0"], name=name, **attributes))
        return f"{name}:0"

    def add(self, node: onnx.NodeProto) -> None:
        """A node made elsewhere, added at ``commit``."""
        self._pending.append(node)

    def array(self, name: str) -> np.ndarray | None:
        """The value of an initializer, or None for a computed tensor."""
        tensor = self.initializers.get(name)
        return None if tensor is None else numpy_helper.to_array(tensor)

    def find(self, name: str) -> onnx.NodeProto:
        """The node called ``name``; raises ``GraphEditError`` if the graph has none."""
        for node in self.graph.node:
            if node.name == name:
                return node
        raise GraphEditError(f"no node {name!r}")

    def made_by(self, tensor: str) -> onnx.NodeProto:
        """The node that computes ``tensor``; raises ``GraphEditError`` if none does."""
        node = self.producer.get(tensor)
        if node is None:
            raise GraphEditError(f"no node computes {tensor!r}")
        return node

    def rewire(self, old: str, new: str, only: Iterable[onnx.NodeProto] | None = None) -> None:
        """Make the consumers of ``old`` (those in ``only``, if given) read ``new`` instead."""
        users = list(self.consumers[old]) if only is None else list(only)
        for node in users:
            for index, name in enumerate(node.input):
                if name == old:
                    node.input[index] = new

    def commit(self) -> None:
        """Add the new nodes, drop what no output needs, order the nodes, refresh the lookups."""
        self.graph.node.extend(self._pending)
        self._pending = []
        drop_unused(self.graph)
        nodes = topological(self.graph, list(self.graph.node))
        del self.graph.node[:]
        self.graph.node.extend(nodes)
        self.refresh()


def drop_unused(graph: onnx.GraphProto) -> None:
    """Remove the nodes no graph output depends on, and the initializers no node reads."""
    producer = {name: node for node in graph.node for name in node.output}
    needed: set[int] = set()
    pending = [output.name for output in graph.output]
    while pending:
        node = producer.get(pending.pop())
        if node is not None and id(node) not in needed:
            needed.add(id(node))
            pending.extend(node.input)
    nodes = [node for node in graph.node if id(node) in needed]
    del graph.node[:]
    graph.node.extend(nodes)
    read = {name for node in nodes for name in node.input}
    initializers = [tensor for tensor in graph.initializer if tensor.name in read]
    del graph.initializer[:]
    graph.initializer.extend(initializers)


def topological(graph: onnx.GraphProto, nodes: list[onnx.NodeProto]) -> list[onnx.NodeProto]:
    """``nodes`` ordered so each comes after what it reads, otherwise in their order; raises ``GraphEditError`` on
    a cycle or a missing input."""
    available = {value.name for value in graph.input} | {tensor.name for tensor in graph.initializer} | {""}
    producer = {name: index for index, node in enumerate(nodes) for name in node.output}
    waiting_on = [0] * len(nodes)
    readers: dict[int, list[int]] = defaultdict(list)
    for index, node in enumerate(nodes):
        for source in {producer[name] for name in node.input if name not in available and name in producer}:
            waiting_on[index] += 1
            readers[source].append(index)
    missing = sorted({name for node in nodes for name in node.input if name not in available and name not in producer})
    if missing:
        raise GraphEditError(f"the edited graph reads what nothing computes: {missing[:5]}")
    ready = [index for index, count in enumerate(waiting_on) if count == 0]
    heapq.heapify(ready)
    ordered: list[onnx.NodeProto] = []
    while ready:
        index = heapq.heappop(ready)
        ordered.append(nodes[index])
        for reader in readers[index]:
            waiting_on[reader] -= 1
            if waiting_on[reader] == 0:
                heapq.heappush(ready, reader)
    if len(ordered) != len(nodes):
        raise GraphEditError("the edited graph has a cycle")
    return ordered
