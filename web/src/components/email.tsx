/**
 * An email address that wraps, when it must, before its '@' rather than at a random letter, and
 * only breaks inside a part that is longer than the column.
 */
export function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <span className="[overflow-wrap:anywhere]">{address}</span>;
  return (
    <span className="[overflow-wrap:anywhere]">
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </span>
  );
}
