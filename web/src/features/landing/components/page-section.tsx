import type { ReactNode } from 'react';

/**
 * A titled section of a content page (About, Who we are!): its title names it. With an `aside`
 * (the visit card, a photo), the title and content take the wider column beside it, laid out by
 * `asideLayout`.
 */
export function PageSection({
  titleId,
  title,
  className,
  intro,
  aside,
  asideLayout = 'gap-10 lg:grid-cols-[1.6fr_1fr] lg:gap-14',
  children,
}: {
  titleId: string;
  title: string;
  className: string;
  /** The lead paragraph under the title. */
  intro?: ReactNode;
  aside?: ReactNode;
  asideLayout?: string;
  children?: ReactNode;
}) {
  const content = (
    <>
      <h2 id={titleId} className="heading-2 text-neutral">
        {title}
      </h2>
      {intro ? <p className="lead mt-4">{intro}</p> : null}
      {children}
    </>
  );
  return (
    <section aria-labelledby={titleId} className={className}>
      {aside ? (
        <div className={`container-page grid ${asideLayout}`}>
          <div>{content}</div>
          {aside}
        </div>
      ) : (
        <div className="container-page">{content}</div>
      )}
    </section>
  );
}
