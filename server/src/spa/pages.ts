import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Clinic } from '@doctors-portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { prerenderOnThread } from './prerender-thread.js';

/** The app's page as sent: its text, and the compressed copies made once when it is built. */
export interface Page {
  html: string;
  br: Buffer;
  gzip: Buffer;
  /** What the content security policy must admit of the page's own inline script and style. */
  inline?: { script: string; style: string };
}

/** The page every client route gets, and the prerendered screens' pages by path. */
export interface Pages {
  shell: Page;
  screens: Map<string, Page>;
}

/** A public screen rendered by the web build's prerender module (web/src/prerender.tsx). */
interface PrerenderedScreen {
  path: string;
  title: string;
  html: string;
}

/** Where the web build puts the prerender module: a dot folder, which is never served. */
const PRERENDER_MODULE = path.join('.ssr', 'prerender.js');

/** The element the app renders into, as the build writes it. */
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * The app's pages, made once from the build: the page every client route gets (`shell`), and
 * for each public screen the web build prerenders, a page with that screen drawn inside its root
 * element and its own title (`withScreen`), painted before the app loads (`paintFirst`). All carry the clinic's details. Without a
 * prerender module in the build, or when it fails, every route gets the shell, and the app
 * draws each screen itself.
 */
export function buildPages(
  root: string,
  clinic: Clinic,
  log: FastifyBaseLogger,
): Promise<Pages | null> {
  const indexFile = path.join(root, 'index.html');
  if (!fs.existsSync(indexFile)) return Promise.resolve(null);
  // Made once per build and clinic in a process (the tests build many apps on one build).
  const key = `${indexFile}\n${fs.statSync(indexFile).mtimeMs}\n${JSON.stringify(clinic)}`;
  let pages = built.get(key);
  if (!pages) {
    pages = makePages(root, indexFile, clinic, log);
    built.set(key, pages);
  }
  return pages;
}

const built = new Map<string, Promise<Pages>>();

async function makePages(
  root: string,
  indexFile: string,
  clinic: Clinic,
  log: FastifyBaseLogger,
): Promise<Pages> {
  const shell = withClinic(fs.readFileSync(indexFile, 'utf8'), clinic);
  const screens = new Map<string, Page>();
  const rendered = await prerender(root, clinic, log);
  if (rendered.length > 0) {
    const painted = paintFirst(shell, root, log);
    for (const screen of rendered) {
      const { html, inline } = painted(screen.path);
      screens.set(screen.path, { ...page(withScreen(html, screen)), inline });
    }
  }
  return { shell: page(shell), screens };
}

async function prerender(
  root: string,
  clinic: Clinic,
  log: FastifyBaseLogger,
): Promise<PrerenderedScreen[]> {
  const file = path.join(root, PRERENDER_MODULE);
  if (!fs.existsSync(file)) return [];
  try {
    return await prerenderOnThread<Clinic, PrerenderedScreen>(file, clinic);
  } catch (error) {
    log.error({ err: error }, 'The public pages could not be prerendered: the app draws them');
    return [];
  }
}

/**
 * The page with its compressed copies. Brotli at quality 9, not the maximum 11: a page with its
 * stylesheet inside compresses in 17 ms instead of 141 for 7 % more bytes (19.7 KB against
 * 18.4), which five pages would add to every start of the server.
 */
function page(html: string): Page {
  return {
    html,
    br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzip: gzipSync(html, { level: 9 }),
  };
}

/** The page with the clinic's details as JSON in a script element the app reads (never runs). */
function withClinic(html: string, clinic: Clinic): string {
  // `<` escaped: no value can close the script element early.
  const json = JSON.stringify(clinic).replace(/</g, '\\u003c');
  return html.replace(
    '</head>',
    `<script type="application/json" id="clinic-data">${json}</script></head>`,
  );
}

const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const STYLESHEET = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/;

/**
 * The shell made for a page the browser can paint from its HTML alone, for each prerendered
 * screen's address: the screen's own rules written into it (all of the stylesheet's where the
 * build wrote none for it), so that the first paint waits for no other request, and the app's
 * code asked for only after that first paint, by a small inline script, so that its download
 * neither holds up nor shares the line with what is on screen. That script also links the whole
 * stylesheet, and starts the app once it has loaded: every screen the app may then draw has its
 * rules. The content security policy admits the page's script and style by their hashes. A
 * shell that links no entry or no stylesheet is left as it is.
 */
function paintFirst(
  shell: string,
  root: string,
  log: FastifyBaseLogger,
): (address: string) => Pick<Page, 'html' | 'inline'> {
  const entry = shell.match(ENTRY);
  const stylesheet = shell.match(STYLESHEET);
  const [entryUrl, stylesheetFile] = [entry?.[1], stylesheet?.[1]];
  if (!entry || !entryUrl || !stylesheet || !stylesheetFile) return () => ({ html: shell });
  const modules = [...shell.matchAll(MODULE_PRELOAD)].flatMap(([, href]) => href ?? []);
  const css = fs.readFileSync(path.join(root, stylesheetFile), 'utf8');
  const ownRules = pageStyles(root, stylesheetFile, log);
  const base = shell
    .replace(entry[0], '')
    .replace(MODULE_PRELOAD, '')
    .replace(stylesheet[0], '<style></style>');
  return (address) => {
    const own = ownRules[address];
    const style = own ?? css;
    const script = appLoader(entryUrl, modules, own ? `/${stylesheetFile}` : null);
    const html = base
      .replace('<style></style>', () => `<style>${style}</style>`)
      .replace('</head>', () => `<script type="module">${script}</script></head>`);
    return { html, inline: { script: hashSource(script), style: hashSource(style) } };
  };
}

/**
 * The inline script that loads the app once the browser reports the first contentful paint (or,
 * where it reports no paints, after the first frame): the modules' requests start after it.
 * Given the whole stylesheet, it links that too and imports the entry once the stylesheet has
 * loaded (or failed: the app must run either way).
 */
function appLoader(entry: string, modules: string[], stylesheet: string | null): string {
  const run = stylesheet
    ? `const sheet=document.createElement("link");sheet.rel="stylesheet";` +
      `sheet.href=${JSON.stringify(stylesheet)};const run=()=>import(${JSON.stringify(entry)});` +
      `sheet.onload=run;sheet.onerror=run;document.head.append(sheet)`
    : `import(${JSON.stringify(entry)})`;
  return (
    `let started=false;const start=()=>{if(started)return;started=true;` +
    `for(const href of ${JSON.stringify(modules)}){const link=document.createElement("link");` +
    `link.rel="modulepreload";link.href=href;document.head.append(link)}${run}};` +
    `if(PerformanceObserver.supportedEntryTypes?.includes("paint"))new PerformanceObserver(` +
    `(list)=>{if(list.getEntriesByName("first-contentful-paint").length>0)setTimeout(start)})` +
    `.observe({type:"paint",buffered:true});else requestAnimationFrame(()=>setTimeout(start))`
  );
}

/** Where the web build writes each prerendered page's own rules (scripts/page-styles.mjs). */
const PAGE_STYLES = path.join('.ssr', 'page-styles.json');
/** That file: the stylesheet the rules were taken from, and each address's rules. */
const pageStylesFile = z.object({
  stylesheet: z.string(),
  pages: z.record(z.string(), z.string()),
});

/**
 * Each prerendered address's own rules, as the web build wrote them for `stylesheet`; none when
 * the build wrote none, or wrote them for another stylesheet than the page links (its rules
 * might not be that stylesheet's), or the file cannot be read.
 */
function pageStyles(
  root: string,
  stylesheet: string,
  log: FastifyBaseLogger,
): Record<string, string> {
  const file = path.join(root, PAGE_STYLES);
  if (!fs.existsSync(file)) return {};
  try {
    const written = pageStylesFile.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (written.stylesheet === stylesheet) return written.pages;
    log.warn(`${file} is for another stylesheet than ${stylesheet}: pages carry all of it`);
  } catch (error) {
    log.error({ err: error }, `${file} could not be read: pages carry the whole stylesheet`);
  }
  return {};
}

/** A content security policy source admitting exactly this inline text. */
function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/**
 * The page with a prerendered screen in its root element and the screen's title. React writes
 * the hints it would put in a document's head (an image the screen shows first) before the
 * markup: they go to the head.
 */
function withScreen(html: string, screen: PrerenderedScreen): string {
  const hints = screen.html.match(/^(?:<link [^>]*\/>)*/)?.[0] ?? '';
  const markup = screen.html.slice(hints.length);
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(screen.title)}</title>`)
    .replace('</head>', () => `${hints}</head>`)
    .replace(EMPTY_ROOT, () => `<div id="root">${markup}</div>`);
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
