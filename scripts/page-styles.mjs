#!/usr/bin/env node
// The web build's last step: the rules each prerendered public page carries inside it. The app's
// stylesheet holds the rules of every screen (141 KB); a public page drawn before the app loads
// needs about a third of them. The server writes a page's own rules into it and has the whole
// stylesheet loaded after the first paint, before the app takes the page over
// (server/src/spa/pages.ts, docs/decisions/031-public-pages-carry-their-own-rules.md).
//
//   node ../scripts/page-styles.mjs dist      (run by `npm run build -w web`, after both builds)
//
// Writes dist/.ssr/page-styles.json: { stylesheet, pages: { [path]: css } }.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Beasties from 'beasties';

/** The app's stylesheet as the build links it, found the way the server finds it. */
const STYLESHEET = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/;
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * What the clinic's configuration can change in a public page's markup: the text of its details,
 * and whether the sign-in forms show Google's button. A page's rules cover it drawn either way.
 */
const CLINICS = [true, false].map((signInWithGoogle) => ({
  name: 'Doctors Portal',
  phone: '+1 555 010 0100',
  address: '1 Main Street, Springfield',
  email: 'clinic@example.com',
  hours: 'Monday to Friday, 9:00 to 17:00',
  timeZone: 'America/New_York',
  signInWithGoogle,
}));

/**
 * The rules of `css` that can apply to a page whose root holds any of `drawings` (one page drawn
 * for each clinic), in the stylesheet's order: Beasties matches every selector against the
 * page, ignoring states such as `:hover` and `:focus`, so that a rule for a state the page can
 * be put in stays. Beasties looks for a selector's elements below the page's root element, not
 * at it: the rules for the root (`:root`, daisyUI's theme on `[data-theme]`) are kept whole. So
 * are `@property` and `@layer` rules; keyframes only when a kept rule names them.
 *
 * @param {string} shell the build's index.html, with its stylesheet link and empty root
 * @param {string} css the stylesheet it links
 * @param {string[]} drawings what the page's root holds for each clinic
 * @returns {Promise<string>}
 */
export async function pageStyle(shell, css, drawings) {
  if (!STYLESHEET.test(shell) || !shell.includes(EMPTY_ROOT)) {
    throw new Error('the page has no stylesheet link or no empty root to draw into');
  }
  const page = shell
    .replace(/<script\b[\s\S]*?<\/script>/g, '')
    .replace(STYLESHEET, () => `<style>${css}</style>`)
    .replace(EMPTY_ROOT, () => `<div id="root">${drawings.join('')}</div>`);
  const beasties = new PageRules({
    reduceInlineStyles: true,
    keyframes: 'critical',
    allowRules: [/:root/, /^\[data-theme/],
    fonts: false,
    logLevel: 'warn',
  });
  const pruned = await beasties.process(page);
  // Beasties takes out a style element left empty.
  return pruned.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '';
}

/**
 * Beasties with `:where(…)` and `:is(…)` read for what they hold. Beasties drops a pseudo-class
 * with its argument before it matches a selector, which leaves nothing of
 * `:where(.space-y-2>:not(:last-child))`, the form of Tailwind's spacing and many of daisyUI's
 * rules, and such a rule would be dropped. Read as `.space-y-2>:not(:last-child)`, it is kept
 * when the page has that element; `:where(.a,.b) .c` is kept when the page has `.a .c` or
 * `.b .c`.
 */
class PageRules extends Beasties {
  normalizeCssSelector(selector) {
    const options = [
      ...new Set(alternatives(selector).map((one) => super.normalizeCssSelector(one))),
    ].filter(Boolean);
    if (options.length <= 1) return options[0] ?? '';
    // Given a list of lone class names, Beasties answers from its cache, and only yes when the
    // page has every one; with `:not(#…)` on each, css-select answers, yes when it has any.
    return options.map((one) => `${one}:not(#${NO_ELEMENT})`).join(',');
  }
}

/** An id no element has. */
const NO_ELEMENT = 'page-styles-no-element';

/**
 * The selectors `selector` stands for with each `:where(…)` and `:is(…)` opened: one for each
 * choice among the alternatives of a list inside one (`.a :is(.b,.c)`: `.a .b` and `.a .c`).
 */
function alternatives(selector) {
  for (let index = 0; index < selector.length; index++) {
    // An escaped character (`.md\:flex`) is part of a name.
    if (selector[index] === '\\') {
      index++;
      continue;
    }
    const wrapper = /^:(?:where|is)\(/.exec(selector.slice(index));
    if (!wrapper) continue;
    const parts = [];
    let from = index + wrapper[0].length;
    let depth = 1;
    let end = from;
    for (; end < selector.length; end++) {
      const char = selector[end];
      if (char === '\\') end++;
      else if (char === '(') depth++;
      else if (char === ')' && --depth === 0) break;
      else if (char === ',' && depth === 1) {
        parts.push(selector.slice(from, end));
        from = end + 1;
      }
    }
    parts.push(selector.slice(from, end));
    const before = selector.slice(0, index);
    const afters = alternatives(selector.slice(end + 1));
    return parts.flatMap((part) =>
      alternatives(part.trim()).flatMap((inner) => afters.map((after) => before + inner + after)),
    );
  }
  return [selector];
}

async function writePageStyles(dist) {
  const shell = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const stylesheet = shell.match(STYLESHEET)?.[1];
  if (!stylesheet) throw new Error(`${dist}/index.html links no stylesheet`);
  const css = fs.readFileSync(path.join(dist, stylesheet), 'utf8');
  const { prerenderPages } = await import(
    pathToFileURL(path.join(dist, '.ssr', 'prerender.js')).href
  );
  const drawn = await Promise.all(CLINICS.map((clinic) => prerenderPages(clinic)));
  const pages = {};
  for (const { path: address } of drawn[0]) {
    const drawings = drawn.map((screens) => screens.find((s) => s.path === address)?.html ?? '');
    pages[address] = await pageStyle(shell, css, drawings);
  }
  fs.writeFileSync(
    path.join(dist, '.ssr', 'page-styles.json'),
    JSON.stringify({ stylesheet, pages }),
  );
  const sizes = Object.entries(pages).map(([address, rules]) => `${address} ${kb(rules)}`);
  console.log(`page styles (of ${kb(css)}): ${sizes.join(', ')}`);
}

const kb = (text) => `${(Buffer.byteLength(text) / 1000).toFixed(1)} KB`;

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await writePageStyles(path.resolve(process.argv[2] ?? 'dist'));
}
