#!/usr/bin/env python3
"""Prints the BENCHMARKS.md table from criterion's estimates (run after `cargo bench -p reach2d_core`)."""
import json, os, sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "target", "criterion")
ITERS = 10
SIZES = [2, 4, 8, 16, 64]


def est(group, ident=None):
    path = os.path.join(ROOT, group, *( [str(ident)] if ident is not None else []), "new", "estimates.json")
    with open(path) as f:
        e = json.load(f)
    med = e["median"]
    return med["point_estimate"], med["confidence_interval"]["lower_bound"], med["confidence_interval"]["upper_bound"], e["median_abs_dev"]["point_estimate"]


def main():
    print("| N | FABRIK ns/bone-iter | latency bound ns/bone-iter | FABRIK / bound | CCD (damped sweeps) ns/bone-iter "
          "| FABRIK limited ns/bone-iter |")
    print("|---|---|---|---|---|---|")
    per_bone = {}
    for n in SIZES:
        f = est("fabrik", n)
        b = est("latency_bound", n)
        c = est("ccd", n)
        fl = est("fabrik_limited", n)
        k = n * ITERS
        fmt = lambda x: f"{x[0] / k:.2f} ({x[1] / k:.2f}–{x[2] / k:.2f})"
        per_bone[n] = (f[0] / k, c[0] / k)
        print(f"| {n} | {fmt(f)} | {fmt(b)} | {f[0] / b[0]:.2f}x | {fmt(c)} | {fmt(fl)} |")
    t = est("two_bone")
    print()
    print(f"two_bone: {t[0]:.2f} ns per solve (95% CI of the median {t[1]:.2f}–{t[2]:.2f}, MAD {t[3]:.2f})")
    print(f"flatness FABRIK N=64 / N=4 per bone: {per_bone[64][0] / per_bone[4][0]:.2f}x; "
          f"CCD: {per_bone[64][1] / per_bone[4][1]:.2f}x")
    if os.path.isdir(os.path.join(ROOT, "pre_bend")):
        print()
        print("| N | pre_bend ns (95% CI of the median) | fabrik/N solve ns | pre_bend / FABRIK solve |")
        print("|---|---|---|---|")
        for n in SIZES:
            p, f = est("pre_bend", n), est("fabrik", n)
            print(f"| {n} | {p[0]:.1f} ({p[1]:.1f}–{p[2]:.1f}) | {f[0]:.1f} | {p[0] / f[0]:.3f} |")


if __name__ == "__main__":
    sys.exit(main())
