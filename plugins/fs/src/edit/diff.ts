type Op = { kind: " " | "+" | "-"; text: string; oldNo: number; newNo: number };

/** Line operations turning `a` into `b`: common ends trimmed, LCS on the middle (bounded). */
function diffOps(a: string[], b: string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf])
    suf++;
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  const ops: Op[] = [];
  let oldNo = 1;
  let newNo = 1;
  const push = (kind: Op["kind"], text: string) => {
    ops.push({ kind, text, oldNo, newNo });
    if (kind !== "+") oldNo++;
    if (kind !== "-") newNo++;
  };
  for (let i = 0; i < pre; i++) push(" ", a[i]!);
  if (midA.length * midB.length <= 4_000_000) {
    const n = midA.length;
    const m = midB.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i]![j] =
          midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        push(" ", midA[i++]!);
        j++;
      } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) push("+", midB[j++]!);
      else push("-", midA[i++]!);
    }
    // pi lists removals before additions inside one change block
    reorderBlocks(ops, pre);
  } else {
    for (const line of midA) push("-", line);
    for (const line of midB) push("+", line);
  }
  for (let i = a.length - suf; i < a.length; i++) push(" ", a[i]!);
  return ops;
}

function reorderBlocks(ops: Op[], from: number): void {
  let i = from;
  while (i < ops.length) {
    if (ops[i]!.kind === " ") {
      i++;
      continue;
    }
    let j = i;
    while (j < ops.length && ops[j]!.kind !== " ") j++;
    const block = ops.slice(i, j);
    const removed = block.filter((o) => o.kind === "-");
    const added = block.filter((o) => o.kind === "+");
    let oldNo = block[0]!.oldNo;
    let newNo = block[0]!.newNo;
    const fixed = [
      ...removed.map((o) => ({ ...o, oldNo: oldNo++, newNo })),
      ...added.map((o) => ({ ...o, oldNo, newNo: newNo++ })),
    ];
    ops.splice(i, j - i, ...fixed);
    i = j;
  }
}

/**
 * pi's edit diff: `+N text` / `-N text` for changes, ` N text` for up to `context` lines around
 * them, a padded `...` where unchanged lines are skipped; N in new-file numbering for additions
 * and context, old-file numbering for removals.
 */
export function generateDiffString(
  oldText: string,
  newText: string,
  context = 4,
): { diff: string; firstChangedLine?: number } {
  const a = oldText.split("\n");
  const b = newText.split("\n");
  const ops = diffOps(a, b);
  const width = String(Math.max(a.length, b.length)).length;
  const changed = ops.map((o, i) => (o.kind !== " " ? i : -1)).filter((i) => i >= 0);
  if (changed.length === 0) return { diff: "" };
  const near = new Set<number>();
  for (const i of changed)
    for (let k = Math.max(0, i - context); k <= Math.min(ops.length - 1, i + context); k++) near.add(k);
  const out: string[] = [];
  let skipped = false;
  ops.forEach((op, i) => {
    if (!near.has(i)) {
      if (!skipped) out.push(`${" ".repeat(width + 1)}...`);
      skipped = true;
      return;
    }
    skipped = false;
    const no = op.kind === "-" ? op.oldNo : op.kind === "+" ? op.newNo : op.oldNo;
    out.push(`${op.kind}${String(no).padStart(width, " ")} ${op.text}`);
  });
  return { diff: out.join("\n"), firstChangedLine: ops[changed[0]!]!.newNo };
}
