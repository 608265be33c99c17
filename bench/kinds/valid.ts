/**
 * The candidates for the most expensive valid act of the example's forms (`forms/page.json`,
 * `forms/feedback.json`), for the hostile-kind matrix (`bench/kinds.bench.ts`): valid acts as
 * large as the address admits, each costly in its own way, so that the matrix can take the
 * costliest one measured as its anchor.
 *
 * - page, filled to the byte budget: `texts` (spans of 1,999 ASCII characters); `escaped texts`
 *   (1,999 × `\u00e9` a span); `4-byte texts` (1,999 × U+1F600 as UTF-8); `links` (spans with
 *   an `href` of 1,999 characters, each tested against the form's pattern); `nested lists`
 *   (lists nested three deep, 50 spans an item, each span `{"text":"x","marks":[all four]}`:
 *   the most objects, and `uniqueItems` checks, a byte);
 * - feedback: a comment of 1,999 ASCII characters, of `\u00e9`, of `\uD83D\uDE00` (escaped
 *   surrogate pairs) and of U+1F600 as UTF-8.
 *
 * @module
 */

/** A valid act: its name and its JSON text (`escaped`: every character outside ASCII escaped). */
export interface Candidate {
  readonly name: string;
  readonly text: string;
  readonly escaped?: true;
}

/** `text` with every character outside ASCII written as a `\uXXXX` escape (UTF-16 code units). */
export const escapeNonAscii = (text: string): string =>
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const bytes = (text: string) => Buffer.byteLength(text);
const MARKS = ["bold", "italic", "code", "strike"];
const TEXT_MAX = 1_999;
const SPANS_MAX = 50;
const BLOCKS_MAX = 100;
const ITEMS_MAX = 50;

/** A page of paragraphs of `span` (serialized by `serialize`), filled to `budget` bytes. */
function paragraphs(span: unknown, budget: number, serialize = JSON.stringify): string {
  const spanText = serialize(span);
  const head = '{"title":"T","blocks":';
  const paragraph = (n: number) => `{"type":"paragraph","spans":[${Array(n).fill(spanText).join(",")}]}`;
  // Whole paragraphs first, then the one that fills what is left with fewer spans.
  const full = paragraph(SPANS_MAX);
  const parts: string[] = [];
  let used = bytes(head) + 2 + 1;
  while (parts.length < BLOCKS_MAX) {
    const sep = parts.length > 0 ? 1 : 0;
    if (used + sep + bytes(full) <= budget) {
      parts.push(full);
      used += sep + bytes(full);
      continue;
    }
    for (let n = SPANS_MAX - 1; n >= 1; n--) {
      if (used + sep + bytes(paragraph(n)) <= budget) {
        parts.push(paragraph(n));
        break;
      }
    }
    break;
  }
  return `${head}[${parts.join(",")}]}`;
}

/** A page of one list nested three deep, items of 50 small marked spans, filled to `budget` bytes. */
function nestedLists(budget: number): string {
  const span = JSON.stringify({ text: "x", marks: MARKS });
  const spans = (n: number) => `[${Array(n).fill(span).join(",")}]`;
  // Each item takes all the room it can, depth first: the budget fills before the width does.
  const item = (level: number, room: number): string | null => {
    let n = SPANS_MAX;
    while (n >= 1 && bytes(`{"spans":${spans(n)}}`) > room) n--;
    if (n === 0) return null;
    let text = `{"spans":${spans(n)}`;
    if (level < 3) {
      const children = list(level + 1, room - bytes(text) - bytes(',"children":}'));
      if (children !== null) text += `,"children":${children}`;
    }
    return `${text}}`;
  };
  const list = (level: number, room: number): string | null => {
    const head = '{"type":"list","ordered":false,"items":[';
    const items: string[] = [];
    let used = bytes(head) + 2;
    while (items.length < ITEMS_MAX) {
      const sep = items.length > 0 ? 1 : 0;
      const next = item(level, room - used - sep);
      if (next === null) break;
      items.push(next);
      used += sep + bytes(next);
    }
    return items.length === 0 ? null : `${head}${items.join(",")}]}`;
  };
  const head = '{"title":"T","blocks":[';
  return `${head}${list(1, budget - bytes(head) - 2)}]}`;
}

/** The candidates for the page form, each at most `budget` bytes. */
export function pageCandidates(budget: number): Candidate[] {
  const emoji = "\u{1F600}".repeat(TEXT_MAX);
  return [
    { name: "texts", text: paragraphs({ text: "a".repeat(TEXT_MAX) }, budget) },
    {
      name: "escaped texts",
      text: paragraphs({ text: "é".repeat(TEXT_MAX) }, budget, (v) => escapeNonAscii(JSON.stringify(v))),
      escaped: true,
    },
    { name: "4-byte texts", text: paragraphs({ text: emoji }, budget) },
    { name: "links", text: paragraphs({ text: "x", href: `https://a.example/${"a".repeat(TEXT_MAX - 18)}` }, budget) },
    { name: "nested lists", text: nestedLists(budget) },
  ];
}

/** The candidates for the feedback form. */
export function feedbackCandidates(): Candidate[] {
  const act = (comment: string) => ({ rating: 5, topic: "documentation", comment });
  return [
    { name: "ASCII comment", text: JSON.stringify(act("a".repeat(TEXT_MAX))) },
    { name: "escaped comment", text: escapeNonAscii(JSON.stringify(act("é".repeat(TEXT_MAX)))), escaped: true },
    {
      name: "escaped pairs comment",
      text: escapeNonAscii(JSON.stringify(act("\u{1F600}".repeat(TEXT_MAX)))),
      escaped: true,
    },
    { name: "4-byte comment", text: JSON.stringify(act("\u{1F600}".repeat(TEXT_MAX))) },
  ];
}
