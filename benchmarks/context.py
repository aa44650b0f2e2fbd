"""What one run of the benchmarks shares: quick or full, the sandbox, and runs more than one
figure can use (the cold starts give the home screen's peak memory too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from benchmarks.common import Sandbox


@dataclass
class Context:
    quick: bool
    sandbox: Sandbox
    tiny: bool = False          # the smoke test: the smallest sizes, one repetition
    _memo: dict[str, Any] = field(default_factory=dict)

    def pick(self, quick: Any, full: Any, tiny: Any = None) -> Any:
        if self.tiny and tiny is not None:
            return tiny
        return quick if self.quick or self.tiny else full

    def memo(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]
