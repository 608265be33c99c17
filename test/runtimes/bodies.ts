/**
 * Act bodies for the page address, written the way a language model writes them (pretty
 * printed, non-ASCII text, a link, a nested list), and single-respect variations of them.
 */

/** A valid page, as a model's structured output would produce it. */
export const validPage = `{
  "title": "Notes from the édge — ünïcode & <tags>",
  "blocks": [
    { "type": "heading", "level": 1, "spans": [{ "text": "Why a GPT address" }] },
    {
      "type": "paragraph",
      "spans": [
        { "text": "One " },
        { "text": "POST", "marks": ["code"] },
        { "text": " publishes this page; see " },
        { "text": "the draft", "href": "https://example.org/gpt-draft", "marks": ["bold", "italic"] },
        { "text": ". <script>alert(1)</script> stays text." }
      ]
    },
    {
      "type": "list",
      "ordered": false,
      "items": [
        { "spans": [{ "text": "first 🌍" }], "children": { "type": "list", "ordered": true, "items": [{ "spans": [{ "text": "nested" }] }] } },
        { "spans": [{ "text": "second" }] }
      ]
    }
  ]
}
`;

/** The same page with the title given twice (the second spelled with an escape). */
export const duplicateTitle = validPage.replace(`"title": "Notes`, `"t\\u0069tle": "Other", "title": "Notes`);

/** The same page with `"text"` given twice in the innermost span. */
export const duplicateDeep = validPage.replace(`{ "text": "nested" }`, `{ "text": "nested", "text": "again" }`);

/** The same page followed by a second value. */
export const trailingValue = `${validPage}{}`;

/** The same page followed by whitespace only (valid JSON text). */
export const trailingWhitespace = `${validPage}\n\t \n`;

/** The same page with a member the form does not name (`additionalProperties: false`). */
export const unknownMember = validPage.replace(`"title": "Notes`, `"author": "gpt", "title": "Notes`);

/** The same page with a link that is not https (the form's pattern). */
export const httpLink = validPage.replace("https://example.org/gpt-draft", "http://example.org/gpt-draft");

/** The same page with a heading level out of range. */
export const headingLevel4 = validPage.replace(`"level": 1`, `"level": 4`);

/** The page padded with trailing spaces to exactly `bytes` bytes of UTF-8. */
export function padded(bytes: number): Uint8Array {
  const text = new TextEncoder().encode(validPage);
  if (bytes < text.length) throw new RangeError(`the page alone is ${text.length} bytes`);
  const out = new Uint8Array(bytes).fill(0x20);
  out.set(text);
  return out;
}
