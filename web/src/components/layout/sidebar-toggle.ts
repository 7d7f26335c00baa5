import { useSyncExternalStore } from 'react';

/**
 * Whether the dashboard's sidebar is open on small screens. The navigation bar's mobile toggle
 * writes it and the dashboard layout reads it, without either importing the other.
 */
export const DASHBOARD_SIDEBAR_ID = 'dashboard-sidebar';

type Listener = () => void;

let open = false;
const listeners = new Set<Listener>();

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
  for (const listener of listeners) listener();
}

export function toggleSidebar() {
  setSidebarOpen(!open);
}

export interface SidebarState {
  open: boolean;
  setOpen: (next: boolean) => void;
  toggle: () => void;
}

/** The dashboard sidebar's open state, shared by the navigation bar and the dashboard layout. */
export function useSidebar(): SidebarState {
  const isOpen = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { open: isOpen, setOpen: setSidebarOpen, toggle: toggleSidebar };
}
