/**
 * Matches a URI against an RFC 6570 level-1 template (`test://template/{id}/data`): the variables'
 * values, or undefined when it does not match. A variable matches one or more characters other
 * than `/`, `?` and `#`, and its value is percent-decoded.
 */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/\{([^}]+)\}|[.*+?^$()|[\]\\]/g, (whole, name: string | undefined) => {
    if (name === undefined) return `\\${whole}`;
    names.push(name.trim());
    return "([^/?#]+)";
  });
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  const values: Record<string, string> = {};
  names.forEach((name, index) => {
    const raw = match[index + 1]!;
    try {
      values[name] = decodeURIComponent(raw);
    } catch {
      values[name] = raw;
    }
  });
  return values;
}
