#!/usr/bin/env python3
"""Turns `benchstat -col /client -row /path,/gomaxprocs -format csv` output
(stdin) into one Markdown table per unit: a row per path and client with the
median, its 95 % confidence interval, and the change from retrygen (the base
column) with its p-value. Used by sidebyside.sh."""
import csv, sys

SCALE = {"sec/op": (1e6, "µs"), "cpu-sec/op": (1e6, "µs"), "B/op": (1, "B"), "allocs/op": (1, "")}

rows = list(csv.reader(sys.stdin))
i = 0
while i < len(rows):
    r = rows[i]
    if len(r) > 1 and r[0] == "" and r[1] and i + 1 < len(rows) and rows[i + 1][1] in SCALE:
        clients, units = r, rows[i + 1]
        unit = units[1]
        scale, suffix = SCALE[unit]
        cols = []  # (client, value col, ci col, vs col or None, p col or None)
        j = 1
        while j < len(clients):
            if units[j] == unit:
                name = clients[j]
                if j + 2 < len(units) and units[j + 2] == "vs base":
                    cols.append((name, j, j + 1, j + 2, j + 3)); j += 4
                else:
                    cols.append((name, j, j + 1, None, None)); j += 2
            else:
                j += 1
        print(f"\n### {unit}" + (f" ({suffix})" if suffix else "") + "\n")
        print("| path | client | median | 95 % CI | vs retrygen | p |")
        print("|---|---|---:|---:|---:|---|")
        i += 2
        while i < len(rows) and rows[i] and rows[i][0] != "":
            row = rows[i]
            if row[0] != "geomean":
                path = row[0].replace(" ", " -cpu ")
                for name, v, ci, vs, p in cols:
                    if v >= len(row) or row[v] == "":
                        continue
                    val = float(row[v]) * scale
                    txt = f"{val:,.1f}" if scale != 1 or val < 1000 else f"{val:,.0f}"
                    print(f"| {path} | {name} | {txt} | ±{row[ci]} | {row[vs] if vs else '(base)'} | {row[p] if p else ''} |")
            i += 1
    else:
        i += 1
