"""GNU Go's analysis commands over the readers: tactics (``attack``, ``defend``, ``does_attack``, ``does_defend``,
``ladder_attack``), life and death (``owl_attack``, ``owl_defend``, ``dragon_status``), connections (``connect``,
``disconnect``, ``same_dragon``), eyes (``eval_eye``), unconditional life and the end-of-game count (``final_score``,
``final_status_list``), with GNU Go's answers and result codes.

A read cut short by its budget answers ``0`` (or ``unknown``), never a guess; the readers are imported when a
command first needs them, so a session that only plays moves does not load them.
"""

from __future__ import annotations

from .gtp_protocol import GtpError, GtpProtocol


class AnalysisCommands(GtpProtocol):
    """The analysis commands of a GTP engine; ``read_seconds`` bounds a tactical read in time."""

    read_seconds: float

    # ------------------------------------------------------------------ tactical reading (GNU Go's result codes)
    def _reader(self):
        from .reading import Limits, Reader

        key = (self.game.hash, self.game.to_move, self.game.ko, self.game.ko_color)
        if getattr(self, "_reader_key", None) != key:
            self._reader_cache = Reader(self.game, Limits(seconds=self.read_seconds))
            self._reader_key = key
        return self._reader_cache

    def _read(self, method: str, target: int, *extra: int) -> str:
        from .reading import GTP_CODE, BudgetExceeded

        try:
            answer = getattr(self._reader(), method)(*extra, target)
        except BudgetExceeded:
            self.unknown = True
            return "0"
        if isinstance(answer, tuple):
            code, move = answer
            return "0" if code == 0 else f"{GTP_CODE[code]} {self._name(move)}"
        return str(GTP_CODE[answer])

    def cmd_attack(self, args: list[str]) -> str:
        self._need(args, 1, "attack VERTEX")
        return self._read("attack", self._stone(args[0]))

    def cmd_defend(self, args: list[str]) -> str:
        self._need(args, 1, "defend VERTEX")
        return self._read("defend", self._stone(args[0]))

    def cmd_does_attack(self, args: list[str]) -> str:
        self._need(args, 2, "does_attack MOVE VERTEX")
        move = self._vertex(args[0], allow_pass=False)
        return self._read("does_attack", self._stone(args[1]), move)

    def cmd_does_defend(self, args: list[str]) -> str:
        self._need(args, 2, "does_defend MOVE VERTEX")
        move = self._vertex(args[0], allow_pass=False)
        return self._read("does_defend", self._stone(args[1]), move)

    def cmd_ladder_attack(self, args: list[str]) -> str:
        """GNU Go: can the string (with exactly two liberties) be captured in a ladder."""
        self._need(args, 1, "ladder_attack VERTEX")
        p = self._stone(args[0])
        if len(self.game.chain_of[p].libs) != 2:
            raise GtpError("string must have exactly 2 liberties")
        from .reading import GTP_CODE, BudgetExceeded, ladder_attack

        try:
            code, move = ladder_attack(self.game, p)
        except BudgetExceeded:
            self.unknown = True
            return "0"
        return "0" if code == 0 else f"{GTP_CODE[code]} {self._name(move)}"

    def _estimate(self):
        """The dead-stone estimate of the current position (teach/go/status.py), computed once per position."""
        from .status import estimate

        key = (self.game.hash, self.game.size, tuple(self.game.board))
        cached = getattr(self, "_estimate_cache", None)
        if cached is None or cached[0] != key:
            cached = (key, estimate(self.game))
            self._estimate_cache = cached
        return cached[1]

    def cmd_final_score(self, args: list[str]) -> str:
        """Area count (数子) after removing the stones the estimate calls dead; unsure groups count as alive."""
        margin = self._estimate().score().margin_points
        if margin == 0:
            return "0"
        points = abs(margin)
        text = f"{float(points):.1f}" if (points * 2).denominator == 1 else f"{float(points):g}"
        return f"{'B' if margin > 0 else 'W'}+{text}"

    def cmd_final_status_list(self, args: list[str]) -> str:
        """The chains the estimate calls ``alive``, ``dead`` or ``seki``: one line a chain, like GNU Go. Groups
        the estimate is unsure of count as alive (they stay on the board for the count)."""
        self._need(args, 1, "final_status_list STATUS")
        status = args[0].lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpError(f"syntax error: invalid status {args[0]!r} (alive, dead or seki)")
        est = self._estimate()
        wanted = est.dead if status == "dead" else est.seki if status == "seki" else est.alive | est.unsure
        n = self.game.size
        chains = [self._board_order(ch.stones) for ch in self.game.chains() if ch.stones[0] in wanted]
        chains.sort(key=lambda stones: (-(stones[0] // n), stones[0] % n))
        return "\n".join(" ".join(self.game.name(p) for p in stones) for stones in chains)

    def cmd_unconditional_status(self, args: list[str]) -> str:
        """GNU Go: ``alive``/``dead``/``undecided`` for a stone, ``black_territory``/``white_territory``/
        ``undecided`` for an empty point (unconditional life: see teach/go/life.py)."""
        from .life import unconditional_status

        self._need(args, 1, "unconditional_status VERTEX")
        p = self._vertex(args[0], allow_pass=False)
        return unconditional_status(self.game, p)

    # ------------------------------------------------------------------ life and death (teach/go/lifedeath.py)
    def cmd_owl_attack(self, args: list[str]) -> str:
        """GNU Go: can the group at VERTEX be killed, the other colour moving first? ``1 MOVE`` (unconditionally),
        ``2 MOVE`` (a ko the attacker takes first), ``3 MOVE`` (a ko the attacker must win), ``0`` (no kill
        found, or the search ran out of budget)."""
        from .lifedeath import owl

        self._need(args, 1, "owl_attack VERTEX")
        code, move = owl(self.game, self._stone(args[0]), "attack")
        return "0" if code == 0 else f"{code} {self._name(move)}"

    def cmd_owl_defend(self, args: list[str]) -> str:
        """GNU Go: can the group at VERTEX live, its owner moving first? Codes as for owl_attack; ``1 PASS`` when
        no move is needed."""
        from .lifedeath import owl

        self._need(args, 1, "owl_defend VERTEX")
        code, move = owl(self.game, self._stone(args[0]), "defend")
        return "0" if code == 0 else f"{code} {self._name(move)}"

    # ------------------------------------------------------------------ connections (teach/go/connection.py)
    def cmd_connect(self, args: list[str]) -> str:
        """GNU Go: can the chains at A and B be connected, their owner moving first? ``1 MOVE`` / ``2 MOVE`` /
        ``3 MOVE`` as for defend (``1`` alone when they are joined already), ``0`` when they cannot (or the search
        ran out of budget)."""
        return self._connection(args, "connect")

    def cmd_disconnect(self, args: list[str]) -> str:
        """GNU Go: can the chains at A and B be cut apart, the other colour moving first? Codes as for attack."""
        return self._connection(args, "disconnect")

    def _read_connection(self, a: int, b: int, what: str) -> tuple[int, int | None]:
        """``connection.gtp_connect`` with its refusals as GTP errors; raises BudgetExceeded."""
        from .connection import gtp_connect

        try:
            return gtp_connect(self.game, a, b, what)
        except ValueError as e:
            raise GtpError(str(e)) from None

    def _connection(self, args: list[str], what: str) -> str:
        from .reading import BudgetExceeded

        self._need(args, 2, f"{what} VERTEX VERTEX")
        a, b = self._stone(args[0]), self._stone(args[1])
        try:
            code, move = self._read_connection(a, b, what)
        except BudgetExceeded:
            return "0"
        if code == 0:
            return "0"
        return f"{code} {self._name(move)}" if move is not None else str(code)

    def cmd_same_dragon(self, args: list[str]) -> str:
        """GNU Go: are the stones at A and B one dragon? ``1`` when they are one chain, or chains the other colour
        cannot cut apart even moving first (``disconnect`` fails); ``0`` for stones of two colours or chains it
        can cut, by ko too. An error when the reading runs out of budget: never a guess."""
        from .reading import BudgetExceeded

        self._need(args, 2, "same_dragon VERTEX VERTEX")
        a, b = self._stone(args[0]), self._stone(args[1])
        game = self.game
        if game.board[a] != game.board[b]:
            return "0"
        if game.chain_of[a] is game.chain_of[b]:
            return "1"
        try:
            code, _move = self._read_connection(a, b, "disconnect")
        except BudgetExceeded:
            raise GtpError("cannot settle whether they are one dragon within the reading budget") from None
        return "1" if code == 0 else "0"

    def cmd_dragon_status(self, args: list[str]) -> str:
        """GNU Go: ``alive``, ``critical ATTACK DEFENCE``, ``dead`` or ``unknown`` (the reader ran out of budget)
        for the group at VERTEX (teach/go/lifedeath.py)."""
        from .lifedeath import dragon_status

        self._need(args, 1, "dragon_status VERTEX")
        status, attack, defence = dragon_status(self.game, self._stone(args[0]))
        if status == "critical":
            return f"critical {self._name(attack)} {self._name(defence)}"
        return status

    def cmd_eval_eye(self, args: list[str]) -> str:
        """GNU Go: the eyes the eye space at VERTEX is worth, ``MIN MAX`` with ``ATTACK DEFENCE`` when they
        differ; ``-1`` when the point is in no eye space or reading could not settle it (teach/go/eyes.py)."""
        from .eyes import eye_value

        self._need(args, 1, "eval_eye VERTEX")
        value = eye_value(self.game, self._vertex(args[0], allow_pass=False))
        if value is None:
            return "-1"
        if value.min == value.max:
            return f"{value.min} {value.max}"
        return f"{value.min} {value.max} {self._name(value.attack)} {self._name(value.defence)}"
