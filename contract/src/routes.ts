/**
 * The SPA's routes (spec section 2), the one table of them: the web app links with these, and the
 * server answers exactly these paths with the app's page (`isClientRoute`). A route with a
 * parameter is a function of it.
 */
export const paths = {
  root: '/',
  home: '/home',
  appointment: '/appointment',
  about: '/about',
  whoWeAre: '/who-we-are',
  login: '/login',
  signup: '/signup',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  review: '/dashboard/review',
  history: '/dashboard/history',
  account: '/dashboard/account',
  payment: (bookingId: string) => `/dashboard/payment/${bookingId}`,
  schedule: '/dashboard/schedule',
  clinic: '/dashboard/clinic',
  treatments: '/dashboard/treatments',
  users: '/dashboard/users',
  addDoctor: '/dashboard/add-doctor',
  manageDoctor: '/dashboard/manage-doctor',
  audit: '/dashboard/audit',
  messages: '/dashboard/messages',
  outgoingMail: '/dashboard/mail',
  visit: (token: string) => `/visit/${token}`,
} as const;

/**
 * Each route of `paths` as a pattern: a route with parameters is called with `:1`, `:2`, … in
 * their place, so `paths.payment` reads `/dashboard/payment/:1`.
 */
const routePatterns: readonly string[] = Object.values(paths).map((route) =>
  typeof route === 'string'
    ? route
    : (route as (...parameters: string[]) => string)(
        ...Array.from({ length: route.length }, (_, index) => `:${index + 1}`),
      ),
);

/** One segment of a route pattern as a regular expression: a parameter is any one segment. */
const segmentPattern = (segment: string) =>
  segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The root exactly; every other route with or without one trailing slash. */
const clientRoute = new RegExp(
  `^(?:/|(?:${routePatterns
    .filter((pattern) => pattern !== '/')
    .map((pattern) => pattern.split('/').map(segmentPattern).join('/'))
    .join('|')})/?)$`,
);

/** Whether a URL path (without query) is one of the SPA's routes. */
export function isClientRoute(pathname: string): boolean {
  return clientRoute.test(pathname);
}
