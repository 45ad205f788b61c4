#!/usr/bin/python3
"""World-ticks per second through nginx (deploy/nginx/throng-proxy.conf) against one
throngd called directly, in the same run, alternated: throng-bench-grpc drives the same
worlds at one throngd directly, at the same throngd behind the proxy (the proxy's own
cost), and at three replicas behind the proxy (docs/PERFORMANCE.md, "Through the proxy").
Every process runs on this machine: the replicas share its cores.

  bench/proxy_throughput.py --build build-cpu [--worlds 6] [--size 1000] [--ticks 100]
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "scale"))
from proxy_cluster import Nginx, Throngd  # noqa: E402


def bench(binary, address, args):
    out = subprocess.run([binary, "--server", address, "--scenario", args.scenario,
                          "--size", str(args.size), "--worlds", str(args.worlds),
                          "--ticks", str(args.ticks), "--modes", "unary,stream"],
                         check=True, capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.startswith(args.scenario)]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--nginx", default="/usr/sbin/nginx")
    ap.add_argument("--scenario", default="random")
    ap.add_argument("--size", type=int, default=1000)
    ap.add_argument("--worlds", type=int, default=6)
    ap.add_argument("--ticks", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    throngd = os.path.join(args.build, "service", "throngd")
    load = os.path.join(args.build, "bench", "throng-bench-grpc")
    with tempfile.TemporaryDirectory() as tmp:
        cores = os.cpu_count()
        direct = Throngd(throngd, threads=cores)
        replicas = [Throngd(throngd, threads=max(1, cores // 3)) for _ in range(3)]
        os.makedirs(os.path.join(tmp, "one"))
        os.makedirs(os.path.join(tmp, "three"))
        in_front = Nginx(args.nginx, [direct], os.path.join(tmp, "one"))
        proxy = Nginx(args.nginx, replicas, os.path.join(tmp, "three"))
        try:
            print(f"{cores} cores; {args.worlds} worlds of {args.scenario} {args.size}, "
                  f"{args.ticks} ticks each; alternated, {args.repeats} repeats")
            runs = (("direct      ", direct.address), ("proxy, 1    ", in_front.address),
                    ("proxy, 3    ", proxy.address))
            for k in range(args.repeats):
                for name, address in runs:
                    for row in bench(load, address, args):
                        print(f"{k} {name} {row}")
        finally:
            for p in (in_front, proxy):
                p.stop()
            for r in replicas + [direct]:
                r.stop()


if __name__ == "__main__":
    main()
