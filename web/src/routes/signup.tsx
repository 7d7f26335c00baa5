import { ComingSoon } from '../components/coming-soon';

export default function SignupRoute() {
  return <ComingSoon title="Sign Up now!" />;
}
