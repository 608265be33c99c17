/**
 * Facts about a `pattern` source read from its text alone: anchoring at both ends, whether the
 * match length is bounded, lookaround and backreferences (ECMAScript syntax, `u` flag).
 *
 * @module
 */

interface Shape {
  /** `^` first, `$` last, and no `|` outside a group: the whole string must match. */
  readonly anchored: boolean;
  /** No `*`, `+` or `{n,}` outside a character class: the matched length has a bound. */
  readonly bounded: boolean;
  readonly lookaround: boolean;
  readonly backreference: boolean;
}

/** Reads the shape of the regular expression `source`. */
export function regexShape(source: string): Shape {
  let depth = 0;
  let inClass = false;
  let topAlternation = false;
  let bounded = true;
  let lookaround = false;
  let backreference = false;
  let endsWithDollar = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    endsWithDollar = false;
    if (char === "\\") {
      const next = source[i + 1] ?? "";
      if (!inClass && (/[1-9]/.test(next) || (next === "k" && source[i + 2] === "<"))) backreference = true;
      i++;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "(") {
      depth++;
      if (/^\?(=|!|<=|<!)/.test(source.slice(i + 1, i + 4))) lookaround = true;
    } else if (char === ")") depth--;
    else if (char === "|" && depth === 0) topAlternation = true;
    else if (char === "*" || char === "+") bounded = false;
    else if (char === "{" && /^\{\d+,\}/.test(source.slice(i))) bounded = false;
    else if (char === "$") endsWithDollar = true;
  }
  const anchored = source.startsWith("^") && endsWithDollar && !topAlternation;
  return { anchored, bounded: anchored && bounded, lookaround, backreference };
}
