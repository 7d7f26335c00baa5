import type { ReactNode } from 'react';

/** The frame of the login, sign-up and password pages. */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <section className="flex justify-center bg-base-200/60 px-4 py-12 sm:py-16">
      <div className="card w-full max-w-md bg-base-100 shadow-lift">
        <div className="card-body gap-5 p-6 sm:p-8">
          <header className="text-center">
            <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
            <p className="mt-2 text-base-content/75">{intro}</p>
          </header>
          {children}
        </div>
      </div>
    </section>
  );
}
