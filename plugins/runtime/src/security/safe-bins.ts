import { shortPrefix } from "../text.js";
import { NEVER_SAFE_BINS, SAFE_BIN_PROFILES, type SafeBinProfile } from "./safe-bin-profiles.js";

/** A value or operand that could name a file, expand, or glob: refused in a safe bin's arguments. */
function unsafeLiteral(value: string): boolean {
  if (value === "" || value === "-") return false;
  if (/^(?:\/|\.\.?\/|~)/.test(value)) return true;
  return /[*?[\]$]/.test(value);
}

/** The long option `flag` names, by exact name or unique prefix (as getopt_long accepts). */
function canonicalLong(flag: string, profile: SafeBinProfile): string | undefined {
  const known = [
    ...(profile.valueFlags ?? []),
    ...(profile.booleanFlags ?? []),
    ...(profile.deniedFlags ?? []),
  ].filter((f) => f.startsWith("--"));
  if (known.includes(flag)) return flag;
  const matches = known.filter((f) => f.startsWith(flag));
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * Why `args` are not a safe use of the safe bin `name` (undefined when they are): every option
 * must be one its profile allows, every value and operand a plain literal, and the operand
 * count within the profile's bounds.
 */
export function safeBinProblem(name: string, args: readonly string[]): string | undefined {
  if (NEVER_SAFE_BINS[name]) return NEVER_SAFE_BINS[name];
  const profile = SAFE_BIN_PROFILES[name];
  if (!profile) return `${name} has no safe-bin profile`;
  if (profile.neverSafe) return profile.neverSafe;
  const values = new Set(profile.valueFlags ?? []);
  const booleans = new Set(profile.booleanFlags ?? []);
  const denied = new Set(profile.deniedFlags ?? []);
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1).filter((a) => a !== "-"));
      break;
    }
    if (arg === "-" || arg === "") continue;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const flag = eq === -1 ? arg : arg.slice(0, eq);
      const canonical = canonicalLong(flag, profile);
      if (!canonical) return `option ${shortPrefix(flag, 40)} is not allowed for safe bin ${name}`;
      if (denied.has(canonical)) return `option ${canonical} of ${name} reads or writes files`;
      if (values.has(canonical)) {
        const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
        if (value === undefined || unsafeLiteral(value))
          return `option ${canonical} of ${name} needs a plain value`;
      } else if (eq !== -1) return `option ${canonical} of ${name} takes no value`;
      continue;
    }
    if (arg.startsWith("-")) {
      for (let k = 1; k < arg.length; k++) {
        const flag = `-${arg[k]}`;
        if (denied.has(flag)) return `option ${flag} of ${name} reads or writes files`;
        if (values.has(flag)) {
          const value = k + 1 < arg.length ? arg.slice(k + 1) : args[++i];
          if (value === undefined || unsafeLiteral(value))
            return `option ${flag} of ${name} needs a plain value`;
          break;
        }
        if (!booleans.has(flag)) return `option ${flag} is not allowed for safe bin ${name}`;
      }
      continue;
    }
    operands.push(arg);
  }
  for (const operand of operands) {
    if (unsafeLiteral(operand)) return `operand ${shortPrefix(operand, 80)} could name a file`;
  }
  if (operands.length < (profile.minPositional ?? 0) || operands.length > profile.maxPositional) {
    return profile.maxPositional === 0
      ? `${name} reads stdin only; file operands are not allowed`
      : `${name} takes ${profile.minPositional ?? 0}..${profile.maxPositional} operands`;
  }
  return undefined;
}

/** The configured safe bins that have no profile (a configuration error). */
export function unprofiledSafeBins(names: readonly string[]): string[] {
  return names.filter((name) => !SAFE_BIN_PROFILES[name] && !NEVER_SAFE_BINS[name]);
}
