import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import { LogoMark } from './logo';

/** The clinic's mark and name, linking to the landing page (the navbar's and the footer's). */
export function BrandLink({ className }: { className: string }) {
  return (
    <Link to={paths.root} className={className}>
      <LogoMark className="size-9 text-primary" />
      <span>Doctors Portal</span>
    </Link>
  );
}
