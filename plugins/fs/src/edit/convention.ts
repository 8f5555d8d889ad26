/**
 * When oldText matched only after normalising (typographic quotes and dashes, runs of spaces),
 * the model's text is not the file's spelling: newText is brought to the file's convention the
 * same way, so no curly quote lands in code because the model typed one, and aligned columns
 * stay aligned.
 */

const CLASSES: Array<{ typographic: RegExp; plain: string }> = [
  { typographic: /[\u2018\u2019\u201a\u201b]/g, plain: "'" },
  { typographic: /[\u201c\u201d\u201e\u201f]/g, plain: '"' },
  { typographic: /[\u2010-\u2015\u2212]/g, plain: "-" },
  { typographic: /[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, plain: " " },
];

const has = (re: RegExp, text: string) => {
  re.lastIndex = 0;
  const found = re.test(text);
  re.lastIndex = 0;
  return found;
};

/** Typographic characters of a class the model typed in oldText but the matched region never uses, made plain in newText. */
export function followTypography(newText: string, oldText: string, region: string): string {
  let out = newText;
  for (const { typographic, plain } of CLASSES)
    if (has(typographic, oldText) && !has(typographic, region)) out = out.replace(typographic, plain);
  return out;
}

/** Tokens of a line after its indentation, with the column each starts at. */
function tokens(line: string): Array<{ text: string; col: number }> {
  return [...line.matchAll(/\S+/g)].map((m) => ({ text: m[0], col: m.index }));
}

const collapse = (line: string) => line.trim().replace(/\s+/g, " ");

/**
 * newText's lines spaced like the file: a line equal to oldText's line (spacing aside) is the
 * file's line itself; in a changed line each word goes to the column the file's line has its
 * word at (at least one space apart), so aligned columns stay aligned.
 */
export function followSpacing(newText: string, oldText: string, region: string): string {
  const oldLines = oldText.split("\n");
  const fileLines = region.split("\n");
  if (oldLines.length !== fileLines.length) return newText;
  const newLines = newText.split("\n");
  return newLines
    .map((line, j) => {
      const [want, have] = [oldLines[j], fileLines[j]];
      if (want === undefined || have === undefined || newLines.length !== oldLines.length) return line;
      if (collapse(line) === collapse(want)) return collapse(line) === collapse(have) ? have : line;
      const ours = tokens(line);
      const theirs = tokens(have);
      if (ours.length < 2 || theirs.length < 2) return line;
      let out = line.slice(0, ours[0]!.col) + ours[0]!.text;
      for (let k = 1; k < ours.length; k++) {
        const [prev, word] = [ours[k - 1]!, ours[k]!];
        // words past the file line's last keep the model's own spacing
        const gap =
          k < theirs.length ? theirs[k]!.col - out.length : word.col - (prev.col + prev.text.length);
        out += line.slice(prev.col + prev.text.length, word.col).includes("\t")
          ? line.slice(prev.col + prev.text.length, word.col) + word.text
          : " ".repeat(Math.max(1, gap)) + word.text;
      }
      return out;
    })
    .join("\n");
}
