import { describe, expect, it } from 'vitest';
import { pageStyle } from './page-styles.mjs';

const SHELL =
  '<!doctype html><html lang="en"><head><title>Portal</title>' +
  '<script type="module" crossorigin src="/assets/index-a1.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-a1.css"></head>' +
  '<body><div id="root"></div></body></html>';

/** The stylesheet's rules by name, in its order. */
const RULES = {
  root: ':root{--brand:teal}',
  layer: '@layer base{h1{font-weight:700}}',
  title: '.title{color:var(--brand)}',
  linkHover: '.link:hover{text-decoration:underline}',
  google: '.google{color:gray}',
  appleOrGoogle: ':where(.apple,.google){padding:1px}',
  dialog: '.dialog{position:fixed}',
  stackSpacing: ':where(.stack>:not(:last-child)){margin-bottom:1rem}',
  toastSpacing: ':where(.toast>:not(:last-child)){margin-bottom:2rem}',
  alertOrBadge: ':is(.alert,.badge){border-radius:1rem}',
  cardTitle: '.card :where(.title,.lead){margin:0}',
  wide: '@media (min-width:40rem){.title{font-size:2rem}.dialog{inset:0}}',
  spinner: '.spinner{animation:spin 1s linear infinite}',
  spin: '@keyframes spin{to{rotate:1turn}}',
};
const CSS = Object.values(RULES).join('');

describe('a prerendered page’s own rules', () => {
  it('keep what the page drawn for either clinic can use, in the stylesheet’s order', async () => {
    const withoutGoogle =
      '<div class="card stack"><h1 class="title">Login now!</h1><a class="link" href="/signup">Sign up</a></div>';
    const withGoogle = `${withoutGoogle}<button class="google" type="button">Google</button>`;

    const rules = await pageStyle(SHELL, CSS, [withoutGoogle, withGoogle]);

    expect(rules).toBe(
      [
        RULES.root,
        RULES.layer,
        RULES.title,
        // A state the page can be put in (a pointer over the link) keeps its rule.
        RULES.linkHover,
        // Drawn only when the clinic offers Google sign-in.
        RULES.google,
        // Lone class names in a list: the page has one of them.
        RULES.appleOrGoogle,
        // Tailwind's spacing, read for what `:where(…)` holds; not the toasts', absent here.
        RULES.stackSpacing,
        // A list inside `:where(…)` or `:is(…)`: kept if the page has any of its alternatives
        // (`.card .title`), not otherwise (`:is(.alert,.badge)`).
        RULES.cardTitle,
        // The block keeps the rule the page uses, not the dialog's.
        '@media (min-width:40rem){.title{font-size:2rem}}',
      ].join(''),
    );
  });

  it('keep an animation the page shows, with its keyframes', async () => {
    const rules = await pageStyle(SHELL, CSS, ['<span class="spinner"></span>']);
    expect(rules).toContain(RULES.spinner);
    expect(rules).toContain(RULES.spin);
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
