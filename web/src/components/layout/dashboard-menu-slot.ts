/**
 * One mobile menu for the whole site (the spec: "A mobile menu toggle also opens the dashboard
 * sidebar"): on dashboard pages the navigation bar's menu holds this slot, and the dashboard's
 * sidebar renders its links into it on small screens, below the site's links. Neither imports
 * the other.
 */
export const DASHBOARD_MENU_SLOT_ID = 'dashboard-menu';
