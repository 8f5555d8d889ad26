/**
 * Safe bins: programs that may run in allowlist mode without an allowlist entry because, used as
 * their profile allows, they only filter stdin to stdout. Data from OpenClaw 2026.9.6,
 * `src/infra/exec-safe-bin-policy-profiles.ts` and `src/infra/exec-safe-bin-semantics.ts`
 * (npm `openclaw@2026.9.6`, dist `exec-safe-bin-trust-*.mjs`). Options that name a file to read
 * or write (`wc --files0-from`, `sort -o`, `grep -f`, `tail -f`…) are denied; an option not
 * listed is denied too.
 */
export interface SafeBinProfile {
  minPositional?: number;
  maxPositional: number;
  /** Options that take a value (the next word, `--opt=value` or `-Xvalue`). */
  valueFlags?: readonly string[];
  /** Options without a value. */
  booleanFlags?: readonly string[];
  /** Options refused outright (they read or write files, or follow). */
  deniedFlags?: readonly string[];
  /** Never safe, whatever the options (interpreters of their own language). */
  neverSafe?: string;
}

export const DEFAULT_SAFE_BINS: readonly string[] = ["cut", "uniq", "head", "tail", "tr", "wc"];
export const DEFAULT_TRUSTED_DIRS: readonly string[] = ["/bin", "/usr/bin"];

export const SAFE_BIN_PROFILES: Readonly<Record<string, SafeBinProfile>> = {
  jq: {
    maxPositional: 1,
    valueFlags: ["--arg", "--argjson", "--argstr"],
    deniedFlags: ["--argfile", "--rawfile", "--slurpfile", "--from-file", "--library-path", "-L", "-f"],
    neverSafe:
      "jq can read environment data and load jq code from modules or startup files; use an allowlist entry or approval instead.",
  },
  grep: {
    maxPositional: 0,
    valueFlags: [
      "--regexp",
      "--max-count",
      "--after-context",
      "--before-context",
      "--context",
      "--devices",
      "--binary-files",
      "--exclude",
      "--include",
      "--label",
      "-e",
      "-m",
      "-A",
      "-B",
      "-C",
      "-D",
    ],
    deniedFlags: [
      "--file",
      "--exclude-from",
      "--dereference-recursive",
      "--directories",
      "--recursive",
      "-f",
      "-d",
      "-r",
      "-R",
    ],
  },
  cut: {
    maxPositional: 0,
    valueFlags: [
      "--bytes",
      "--characters",
      "--fields",
      "--delimiter",
      "--output-delimiter",
      "-b",
      "-c",
      "-f",
      "-d",
    ],
    booleanFlags: ["--complement", "--only-delimited", "--zero-terminated", "-n", "-s", "-z"],
  },
  sort: {
    maxPositional: 0,
    valueFlags: [
      "--key",
      "--field-separator",
      "--buffer-size",
      "--parallel",
      "--batch-size",
      "-k",
      "-t",
      "-S",
    ],
    deniedFlags: [
      "--compress-program",
      "--files0-from",
      "--output",
      "--random-source",
      "--temporary-directory",
      "-T",
      "-o",
    ],
  },
  uniq: {
    maxPositional: 0,
    valueFlags: ["--skip-fields", "--skip-chars", "--check-chars", "--group", "-f", "-s", "-w"],
    booleanFlags: [
      "--count",
      "--repeated",
      "--unique",
      "--ignore-case",
      "--zero-terminated",
      "-c",
      "-d",
      "-u",
      "-i",
      "-z",
    ],
  },
  head: {
    maxPositional: 0,
    valueFlags: ["--lines", "--bytes", "-n", "-c"],
    booleanFlags: ["--quiet", "--silent", "--verbose", "--zero-terminated", "-q", "-v", "-z"],
  },
  tail: {
    maxPositional: 0,
    valueFlags: ["--lines", "--bytes", "--sleep-interval", "--max-unchanged-stats", "--pid", "-n", "-c"],
    booleanFlags: ["--quiet", "--silent", "--verbose", "--zero-terminated", "-q", "-v", "-z"],
    deniedFlags: ["--follow", "--retry", "-F", "-f"],
  },
  tr: {
    minPositional: 1,
    maxPositional: 2,
    booleanFlags: [
      "--complement",
      "--delete",
      "--squeeze-repeats",
      "--truncate-set1",
      "-C",
      "-c",
      "-d",
      "-s",
      "-t",
    ],
  },
  wc: {
    maxPositional: 0,
    booleanFlags: [
      "--bytes",
      "--chars",
      "--lines",
      "--max-line-length",
      "--words",
      "-L",
      "-c",
      "-l",
      "-m",
      "-w",
    ],
    deniedFlags: ["--files0-from"],
  },
};

/** Programs OpenClaw never treats as safe bins (they run code of their own). */
export const NEVER_SAFE_BINS: Readonly<Record<string, string>> = {
  awk: "awk-family interpreters can execute commands, access ENVIRON and write files; use an allowlist entry or approval instead.",
  gawk: "awk-family interpreters can execute commands, access ENVIRON and write files; use an allowlist entry or approval instead.",
  mawk: "awk-family interpreters can execute commands, access ENVIRON and write files; use an allowlist entry or approval instead.",
  nawk: "awk-family interpreters can execute commands, access ENVIRON and write files; use an allowlist entry or approval instead.",
  sed: "sed scripts can execute commands and write files; use an allowlist entry or approval instead.",
  gsed: "sed scripts can execute commands and write files; use an allowlist entry or approval instead.",
};
