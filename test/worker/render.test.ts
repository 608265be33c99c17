/**
 * The HTML for people: the arrival page (build time) and stored pages (the example act) escape
 * everything an actor or a form author wrote.
 */
import { describe, expect, it } from "vitest";
import { type PageDocument, renderPage } from "../../examples/pages/render.ts";
import { renderArrivalPage } from "../../src/compile/page.ts";

const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`;

describe("renderPage", () => {
  it("escapes text in the title, headings, paragraphs and list items", () => {
    const page: PageDocument = {
      title: hostile,
      blocks: [
        { type: "heading", level: 1, spans: [{ text: hostile }] },
        { type: "paragraph", spans: [{ text: hostile, marks: ["bold", "code"] }] },
        {
          type: "list",
          ordered: true,
          items: [
            {
              spans: [{ text: hostile }],
              children: { type: "list", ordered: false, items: [{ spans: [{ text: hostile }] }] },
            },
          ],
        },
      ],
    };
    const html = renderPage(page);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;");
    expect(html).toContain("<strong><code>&lt;script&gt;");
    expect(html).toMatch(/<ol><li>.*<ul><li>/s);
  });

  it("escapes link targets and drops any link that is not https", () => {
    const html = renderPage({
      title: "t",
      blocks: [
        {
          type: "paragraph",
          spans: [
            { text: "a", href: 'https://example.org/"><script>x</script>' },
            { text: "b", href: "javascript:alert(1)" },
            { text: "c", href: "http://example.org/" },
          ],
        },
      ],
    });
    expect(html).toContain('<a href="https://example.org/&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain('href="http://');
    expect(html).toContain("</a>bc</p>");
  });

  it("never skips a heading rank: a page that starts at level 2 gets an h2, a level-3 after it an h3", () => {
    const html = renderPage({
      title: "t",
      blocks: [2, 3, 1, 3].map((level) => ({ type: "heading" as const, level, spans: [{ text: `L${level}` }] })),
    });
    expect(html).toMatch(/<h2>L2<\/h2>\n<h3>L3<\/h3>\n<h2>L1<\/h2>\n<h3>L3<\/h3>/);
  });

  it("maps heading levels 1–3 below the page's own h1", () => {
    const html = renderPage({
      title: "t",
      blocks: [1, 2, 3].map((level) => ({ type: "heading" as const, level, spans: [{ text: `L${level}` }] })),
    });
    expect(html).toContain("<h2>L1</h2>");
    expect(html).toContain("<h3>L2</h3>");
    expect(html).toContain("<h4>L3</h4>");
    expect(html.match(/<h1>/g)).toHaveLength(1);
  });
});

describe("renderArrivalPage", () => {
  it("escapes p, messages and the form, and holds no script", () => {
    const html = renderArrivalPage(
      { p: hostile, m: [{ role: hostile, content: hostile }], s: { pattern: hostile } },
      { title: hostile },
    );
    expect(html.toLowerCase()).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('http-equiv="Content-Security-Policy"');
  });

  it("is pure: the same arrival renders to the same string", () => {
    const arrival = { p: "x", m: [{ role: "user", content: "hi" }], s: { type: "object" }, extra: 1 };
    expect(renderArrivalPage(arrival)).toBe(renderArrivalPage(structuredClone(arrival)));
  });
});
