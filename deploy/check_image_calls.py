#!/usr/bin/python3
"""The gRPC side of deploy/check_image.sh: calls against a throngd container, printing one
`PASS name (detail)` or `FAIL name (detail)` line per check (the shell counts them).

  auth        a call without the token is UNAUTHENTICATED; with it, it succeeds
  stop-short  `docker stop` 0.3 s into an Advance of about 2 s, which ends within the
              grace: the call succeeds, a health probe meanwhile says the server is
              draining, exit code 0
  stop-long   `docker stop` 1 s into an Advance of a million ticks: the call ends
              CANCELLED saying the server shuts down and how many ticks ran; docker stop
              returns before its 10 s SIGKILL, exit code 0

Runs with the system Python and the client of clients/python (PYTHONPATH as scripts/demo
sets it); the scenario comes from throng-scenario (THRONG_SCENARIO_TOOL).
"""
import argparse
import re
import subprocess
import threading
import time

import grpc

from throng.client import Client, ThrongError
from throng.scenario import make_scenario

PROBE = ["/usr/local/bin/throngd", "--health-check", "127.0.0.1:50051"]


def report(ok, name, detail):
    print(f"{'PASS' if ok else 'FAIL'} {name} ({detail})", flush=True)
    return ok


def docker(*args, timeout=30):
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)


def world_with_state(client, size):
    """A town world stepped once (Advance needs a state), and its dt."""
    scenario = make_scenario("town", size)
    info = client.create_world(scenario.config, name="check-image")
    client.step(info.world_id, scenario.tick, scenario.dt, scenario.agents, scenario.vehicles,
                integrate=True)
    return info.world_id, scenario.dt


def seconds_per_tick(client, world_id, dt):
    """Measured after 20 warm-up ticks (the first ticks of a world cost more)."""
    client.advance(world_id, 20, dt)
    start = time.perf_counter()
    client.advance(world_id, 100, dt)
    return (time.perf_counter() - start) / 100


def check_auth(args, token):
    with Client(args.server) as anonymous:
        anonymous.wait_ready(60)
        try:
            anonymous.list_worlds()
            report(False, "token required", "a call without the token succeeded")
        except ThrongError as e:
            report(e.code == grpc.StatusCode.UNAUTHENTICATED, "token required",
                   f"without it: {e.code.name}")
    with Client(args.server, token=token, timeout=60) as client:
        try:
            client.list_worlds()
            report(True, "token accepted", "ListWorlds with it: OK")
        except ThrongError as e:
            report(False, "token accepted", str(e))


def advance_and_stop(args, token, call_s, stop_after_s):
    """Starts an Advance of about call_s seconds (None: of a million ticks, far longer
    than any grace), runs `docker stop` stop_after_s into it and probes health 0.3 s
    later. Returns (error or None, ticks asked, stop seconds, probe result)."""
    client = Client(args.server, token=token, timeout=120)
    client.wait_ready(60)
    world_id, dt = world_with_state(client, args.size)
    ticks = 10**6 if call_s is None else max(50, int(call_s / seconds_per_tick(client, world_id, dt)))
    outcome = {}

    def call():
        try:
            client.advance(world_id, ticks, dt)
            outcome["error"] = None
        except ThrongError as e:
            outcome["error"] = e
        outcome["end"] = time.monotonic()

    thread = threading.Thread(target=call)
    thread.start()
    time.sleep(stop_after_s)
    start = time.monotonic()
    stop = subprocess.Popen(["docker", "stop", args.container], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(0.3)
    probe = docker("exec", args.container, *PROBE)
    stop.wait(timeout=60)
    stop_s = time.monotonic() - start
    thread.join(timeout=60)
    client.close()
    after_s = outcome.get("end", float("nan")) - start
    return outcome.get("error", "no answer"), f"{ticks} ticks, answered {after_s:.1f} s after the stop", stop_s, probe


def show_log(args):
    """throngd's last lines with Docker's timestamps: when the grace ran out, when it exited."""
    log = docker("logs", "--timestamps", "--tail", "4", args.container)
    for line in (log.stdout + log.stderr).strip().splitlines():
        print(f"log: {line}")


def check_exit(args, stop_s):
    state = docker("inspect", "-f", "{{.State.ExitCode}} {{.State.OOMKilled}}", args.container)
    code = state.stdout.split()[0] if state.returncode == 0 else "?"
    report(code == "0", f"{args.mode}: exit code", f"{code} after a {stop_s:.1f} s docker stop")
    report(stop_s < 10, f"{args.mode}: stopped before docker's SIGKILL",
           f"{stop_s:.1f} s of docker stop's 10 s")


def check_draining_probe(args, probe):
    said = (probe.stdout + probe.stderr).strip().splitlines()
    report(probe.returncode in (1, 2), f"{args.mode}: health probe while draining",
           f"exit {probe.returncode}: {said[-1] if said else 'no output'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("auth", "stop-short", "stop-long"))
    ap.add_argument("--server", required=True, help="host:port of the container's gRPC port")
    ap.add_argument("--container", help="its name (stop modes)")
    ap.add_argument("--token-file", required=True)
    ap.add_argument("--grace", type=float, default=5.0, help="the container's --shutdown-grace")
    ap.add_argument("--size", type=int, default=1000, help="town pedestrians")
    args = ap.parse_args()
    with open(args.token_file, encoding="utf-8") as f:
        token = f.readline().strip()

    if args.mode == "auth":
        check_auth(args, token)
        return 0
    if args.mode == "stop-short":
        # Ends about 1.7 s after the stop: within a 5 s grace unless ticks slow 2.5-fold.
        error, ticks, stop_s, probe = advance_and_stop(args, token, 2.0, 0.3)
        report(error is None, "stop-short: the call in flight finished",
               f"Advance of {ticks}: " + ("OK" if error is None else str(error)))
    else:
        # Far past the grace: the server must stop it at grace - 0.5 s.
        error, ticks, stop_s, probe = advance_and_stop(args, token, None, 1.0)
        message = getattr(error, "message", str(error))
        ran = re.search(r"(\d+) of (\d+) ticks ran", message or "")
        report(isinstance(error, ThrongError) and error.code == grpc.StatusCode.CANCELLED
               and "shutting down" in message and ran is not None,
               "stop-long: the call past the grace ends CANCELLED with its tick count",
               f"Advance of {ticks}: {getattr(error, 'code', None)}: {message}")
    check_draining_probe(args, probe)
    check_exit(args, stop_s)
    show_log(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
