import { describe, expect, it } from 'vitest';
import { pageStyle } from './page-styles.mjs';

const SHELL =
  '<!doctype html><html lang="en"><head><title>Portal</title>' +
  '<script type="module" crossorigin src="/assets/index-a1.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-a1.css"></head>' +
  '<body><div id="root"></div></body></html>';

const CSS = [
  ':root{--brand:teal}',
  '@layer base{h1{font-weight:700}}',
  '.title{color:var(--brand)}',
  '.link:hover{text-decoration:underline}',
  '.google{color:gray}',
  ':where(.apple,.google){padding:1px}',
  '.dialog{position:fixed}',
  ':where(.stack>:not(:last-child)){margin-bottom:1rem}',
  ':where(.toast>:not(:last-child)){margin-bottom:2rem}',
  ':is(.alert,.badge){border-radius:1rem}',
  '.card :where(.title,.lead){margin:0}',
  '@media (min-width:40rem){.title{font-size:2rem}.dialog{inset:0}}',
  '.spinner{animation:spin 1s linear infinite}',
  '@keyframes spin{to{rotate:1turn}}',
].join('');

describe('a prerendered page’s own rules', () => {
  it('keep what the page drawn for either clinic can use, in the stylesheet’s order', async () => {
    const withoutGoogle =
      '<div class="card stack"><h1 class="title">Login now!</h1><a class="link" href="/signup">Sign up</a></div>';
    const withGoogle = `${withoutGoogle}<button class="google" type="button">Google</button>`;

    const rules = await pageStyle(SHELL, CSS, [withoutGoogle, withGoogle]);

    expect(rules).toBe(
      [
        ':root{--brand:teal}',
        '@layer base{h1{font-weight:700}}',
        '.title{color:var(--brand)}',
        // A state the page can be put in (a pointer over the link) keeps its rule.
        '.link:hover{text-decoration:underline}',
        // Drawn only when the clinic offers Google sign-in.
        '.google{color:gray}',
        // Lone class names in a list: the page has one of them.
        ':where(.apple,.google){padding:1px}',
        // Tailwind's spacing, read for what `:where(…)` holds.
        ':where(.stack>:not(:last-child)){margin-bottom:1rem}',
        // A list inside `:where(…)` or `:is(…)`: kept if the page has any of its alternatives
        // (`.card .title`), not otherwise (`:is(.alert,.badge)`).
        '.card :where(.title,.lead){margin:0}',
        '@media (min-width:40rem){.title{font-size:2rem}}',
      ].join(''),
    );
  });

  it('keep an animation the page shows, with its keyframes', async () => {
    const rules = await pageStyle(SHELL, CSS, ['<span class="spinner"></span>']);
    expect(rules).toContain('.spinner{animation:spin 1s linear infinite}');
    expect(rules).toContain('@keyframes spin{to{rotate:1turn}}');
    expect(rules).not.toContain('.title');
  });

  it('are refused for a page with no stylesheet link or no empty root', async () => {
    await expect(pageStyle(SHELL.replace(/<link[^>]*>/, ''), CSS, [''])).rejects.toThrow(
      'no stylesheet link',
    );
    await expect(
      pageStyle(SHELL.replace('<div id="root"></div>', '<main></main>'), CSS, ['']),
    ).rejects.toThrow('no empty root');
  });
});
