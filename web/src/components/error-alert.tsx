import { Icon } from './icon';

/** The shared error alert box; announced as soon as it appears. */
export function ErrorAlert({ children }: { children: React.ReactNode }) {
  if (!children) return null;
  return (
    <div role="alert" className="alert alert-error alert-soft text-sm">
      <Icon className="size-5 shrink-0">
        <path d="M12 8v5m0 3.5h.01M10.3 3.9 2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
      </Icon>
      <span>{children}</span>
    </div>
  );
}
