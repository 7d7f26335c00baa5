import type { ReactNode } from 'react';
import { Glow } from '../../../components/glow';

/** The title band at the top of a content page (About, Who we are!, not found). */
export function PageHeader({
  eyebrow,
  title,
  children,
}: {
  eyebrow: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <header className="relative overflow-hidden bg-gradient-to-b from-mint to-base-100">
      <Glow className="-right-24 -top-32 size-96 rounded-full bg-primary/5" />
      <div className="container-page relative pb-12 pt-14 sm:pb-16 sm:pt-20">
        <p className="eyebrow">{eyebrow}</p>
        <h1 className="heading-1 mt-4 max-w-3xl text-neutral">{title}</h1>
        {children ? <div className="lead mt-6 max-w-2xl">{children}</div> : null}
      </div>
    </header>
  );
}
