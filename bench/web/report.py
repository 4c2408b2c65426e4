"""The bench's figures: latencies per endpoint, CPU per phase, and the report printed at the end."""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


@dataclass
class Series:
    """Latencies (seconds) and status codes of one endpoint in one phase."""

    name: str
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, latency: float, status: int) -> None:
        self.latencies.append(latency)
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def row(self) -> str:
        lat = sorted(self.latencies)
        if not lat:
            return f"{self.name:<34} no requests"
        q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else [lat[0]] * 99
        ms = [1000 * x for x in (q[49], q[94], q[98], lat[-1])]
        codes = " ".join(f"{k}:{v}" for k, v in sorted(self.statuses.items()))
        return (
            f"{self.name:<34} {len(lat):>7} {len(lat) / self.seconds:>9.1f} "
            f"{ms[0]:>8.1f} {ms[1]:>8.1f} {ms[2]:>8.1f} {ms[3]:>8.1f}   {codes}"
        )


HEADER = (
    f"{'endpoint':<34} {'requests':>7} {'req/s':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
    f"{'max ms':>8}   statuses"
)



def cpu_text(used: list[float], seconds: float, requests: int) -> str:
    gun, pg, me, busy, reader = used
    other = max(0.0, busy - gun - pg - me - reader)
    per = f"; {1000 * gun / requests:.1f} ms of gunicorn CPU per request" if requests else ""
    reads = f", the reads' gunicorn {reader:.1f}" if reader else ""
    return (
        f"{busy:.1f} of {os.cpu_count() * seconds:.0f} CPU-s busy: gunicorn {gun:.1f}, "
        f"postgres {pg:.1f}, client {me:.1f}{reads}, other processes {other:.1f}{per}"
    )



def quantiles_ms(values: list[float]) -> str:
    if len(values) < 2:
        return "too few"
    q = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {1000 * q[49]:.0f} ms, p99 {1000 * q[98]:.0f} ms, max {1000 * max(values):.0f} ms"




def print_report(args, phases: list, push: dict, queries: list[str]) -> None:
    """The figures of a run: each phase's latencies and CPU, a move's CPU against the minimal
    endpoint's, push, and the game page's queries."""
    from .bots import Phase

    if args.server == "asgi":
        workers = f"{args.workers} uvicorn workers (ASGI, a connection pool each)"
    elif args.threads <= 1:
        workers = f"{args.workers} sync workers (WSGI)"
    else:
        workers = f"{args.workers} gthread workers x {args.threads} threads (WSGI)"
    print()
    print(
        f"gunicorn ({workers}) + PostgreSQL on {os.cpu_count()} cores, DEBUG=false; "
        f"{args.games} concurrent games ({2 * args.games} players); each phase {args.seconds:g} s "
        f"in {args.rounds} slices taken in turn; one asyncio + httpx client"
    )
    print(HEADER)
    for phase in phases:
        for s in phase.series:
            print(s.row())
    print()
    print("CPU during each phase (seconds, all cores):")
    for phase in phases:
        first = phase.series[0]
        print(f"  {phase.label}:\n      {cpu_text(phase.cpu, first.seconds, len(first.latencies))}")
    busy = sum(p.cpu[3] for p in phases)
    other = sum(max(0.0, p.cpu[3] - sum(p.cpu[:3]) - p.cpu[4]) for p in phases)
    if busy and other / busy > 0.1:
        print(
            f"  NOTE: other processes took {100 * other / busy:.0f}% of the busy CPU during the "
            f"run: these figures are skewed by other work on the machine"
        )
    by_label = {p.label: p for p in phases}
    minimal = by_label[Phase("minimal", 0).label]
    read = by_label[Phase("read", 0).label]
    minimal_rate = len(minimal.series[0].latencies) / minimal.series[0].seconds
    read_cpu = read.cpu[0] / max(1, len(read.series[0].latencies))
    minimal_cpu = minimal.cpu[0] / max(1, len(minimal.series[0].latencies))
    print()
    for kind in ("htmx", "form", "json"):
        phase = by_label[Phase(kind, 0).label]
        moves, reads = (len(s.latencies) for s in phase.series)
        if not moves:
            continue
        rate = moves / phase.series[0].seconds
        if args.readers:
            # The reads went to the other server: the measured one served only the moves.
            move_cpu = phase.cpu[0] / moves
            where = f"served by the other gunicorn, {1000 * phase.cpu[4] / max(1, reads):.1f} ms each"
        else:
            # A move's own CPU: the phase's gunicorn CPU less that of the reads between moves,
            # at the cost a read has in the "legal.json alone" phase.
            move_cpu = (phase.cpu[0] - reads * read_cpu) / moves
            where = "subtracted"
        print(
            f"{phase.label}: the minimal endpoint serves {minimal_rate / rate:.2f}x its "
            f"requests/s (with {reads / moves:.2f} legal.json reads per move, {where}); "
            f"gunicorn CPU per move {1000 * move_cpu:.1f} ms = {move_cpu / minimal_cpu:.2f}x the "
            f"minimal endpoint's {1000 * minimal_cpu:.1f} ms"
        )
        if args.readers and len(phase.slices) > 1:
            # Slice by slice (the minimal endpoint's slice taken just before): how far the
            # machine's other work moved the figure.
            pairs = zip(phase.slices, minimal.slices, strict=True)
            ratios = [(cpu / n) / (m_cpu / m_n) for (cpu, n), (m_cpu, m_n) in pairs if n and m_n]
            print(f"    slice by slice: {', '.join(f'{r:.2f}x' for r in ratios)}")
    if push:
        idle, lat = push["idle"], push["latency"]
        gun = idle["cpu"][0]
        minutes = idle["seconds"] / 60
        print()
        print(
            f"push, {idle['pages']} idle open pages (event streams, {idle['seconds']:g} s, nothing moving): "
            f"gunicorn {gun:.2f} CPU-s = {100 * gun / idle['seconds']:.2f}% of one core; "
            f"{1000 * gun / max(1, idle['pages']) / minutes:.2f} ms of CPU per page per minute "
            f"(postgres {idle['cpu'][1]:.2f} CPU-s)"
        )
        print(
            f"push, a move to the other page of its game ({lat['games']} games, {lat['moves']} moves, "
            f"think {max(args.think, 0.5):g} s): the version event {quantiles_ms(lat['event'])}; "
            f"the page fetched {quantiles_ms(lat['page'])} (from the move's request; the mover's own "
            f"answer took {quantiles_ms(lat['answer'])})"
        )
        fetched = lat["fetched"]
        if fetched:
            parts = [size for size, only_parts in fetched if only_parts]
            whole = [size for size, only_parts in fetched if not only_parts]

            def kb(sizes: list[int]) -> str:
                return f"{statistics.fmean(sizes) / 1024:.1f} KB" if sizes else "-"

            print(
                f"push, the other page's fetches: {len(fetched)}, mean {kb([s for s, _p in fetched])}; "
                f"{len(parts)} of only the changed parts (mean {kb(parts)}), "
                f"{len(whole)} whole fragments (mean {kb(whole)})"
            )
    print()
    for line in queries:
        print(line)
