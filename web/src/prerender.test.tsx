// @vitest-environment node
import { beforeAll, describe, expect, it } from 'vitest';
import { type PrerenderedPage, prerenderPages } from './prerender';
import { clinic } from './test/fixtures';

/** The pages the server prerenders, as rendered where it renders them: in Node, with no DOM. */
describe('the prerendered public pages', () => {
  let pages: PrerenderedPage[];

  beforeAll(async () => {
    pages = await prerenderPages(clinic);
  });

  it('are the home page, /about, /login and /signup, each with its title', () => {
    expect(pages.map(({ path, title }) => [path, title])).toEqual([
      ['/', 'Doctors Portal · Dental care, on your terms'],
      ['/home', 'Doctors Portal · Dental care, on your terms'],
      ['/about', 'About us · Doctors Portal'],
      ['/login', 'Login · Doctors Portal'],
      ['/signup', 'Sign up · Doctors Portal'],
    ]);
  });

  it('show the clinic and the screen, as a visitor who is not signed in sees them', () => {
    const page = (path: string) => pages.find((entry) => entry.path === path)?.html ?? '';
    expect(page('/')).toContain('Your New Smile Starts Here!');
    expect(page('/')).toContain(clinic.phone);
    expect(page('/about')).toContain(clinic.address);
    expect(page('/login')).toContain('Login now!');
    expect(page('/signup')).toContain('Sign Up now!');
    for (const { html } of pages) {
      expect(html).toContain('href="/login"');
      // Written in place: no fallback swapped in by an inline script.
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<template');
    }
  });

  it('offer no button that would do nothing until the app has taken the page over', () => {
    for (const { path, html } of pages) {
      // A form sent before then would reload the page and lose what was typed (the contact
      // form's message among them): its submit waits for the app, as every button does.
      const live = [...html.matchAll(/<button\b[^>]*>/g)]
        .map(([tag]) => tag)
        .filter((tag) => !tag.includes(' disabled=""'));
      expect(live, path).toEqual([]);
    }
    expect(pages.find((page) => page.path === '/login')?.html).toMatch(
      /<button type="submit"[^>]* disabled=""/,
    );
  });
});
