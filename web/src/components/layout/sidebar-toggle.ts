import { useEffect, useSyncExternalStore } from 'react';

/**
 * Whether the dashboard's sidebar is open on small screens. The navigation bar's mobile toggle
 * writes it and the dashboard layout reads it, without either importing the other.
 */
export const DASHBOARD_SIDEBAR_ID = 'dashboard-sidebar';

type Listener = () => void;

let open = false;
/** How many dashboard sidebars are mounted (the toggle controls one only while it exists). */
let mounted = 0;
const listeners = new Set<Listener>();
const notify = () => {
  for (const listener of listeners) listener();
};

function subscribe(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function getSnapshot() {
  return open;
}

export function setSidebarOpen(next: boolean) {
  if (next === open) return;
  open = next;
  notify();
}

export function toggleSidebar() {
  setSidebarOpen(!open);
}

export interface SidebarState {
  open: boolean;
  /** Whether a dashboard sidebar is on the page for the toggle to control. */
  present: boolean;
  setOpen: (next: boolean) => void;
  toggle: () => void;
}

/** The dashboard sidebar's open state, shared by the navigation bar and the dashboard layout. */
export function useSidebar(): SidebarState {
  const isOpen = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  const present = useSyncExternalStore(subscribe, getPresence, getPresence);
  return { open: isOpen, present, setOpen: setSidebarOpen, toggle: toggleSidebar };
}

const getPresence = () => mounted > 0;

/** Called by the dashboard sidebar: announces it to the toggle while it is mounted. */
export function useSidebarPresence() {
  useEffect(() => {
    mounted += 1;
    notify();
    return () => {
      mounted -= 1;
      notify();
    };
  }, []);
}
