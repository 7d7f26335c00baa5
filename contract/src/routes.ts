/** The SPA's routes (spec section 2). The server answers these paths with the app's page. */
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
  payment: (bookingId: string) => `/dashboard/payment/${bookingId}`,
  users: '/dashboard/users',
  addDoctor: '/dashboard/add-doctor',
  manageDoctor: '/dashboard/manage-doctor',
} as const;

const clientRoute =
  /^\/(home|appointment|about|who-we-are|login|signup|reset-password|dashboard(\/(review|history|users|add-doctor|manage-doctor|payment\/[^/]+))?)?\/?$/;

/** Whether a URL path (without query) is one of the SPA's routes. */
export function isClientRoute(pathname: string): boolean {
  return clientRoute.test(pathname);
}
