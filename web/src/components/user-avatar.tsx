/** 'Maya Cohen' → 'MC'; 'maya' → 'M'. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => word?.[0]?.toUpperCase() ?? '').join('') || '?';
}

/** A round avatar: the user's picture, or their initials on the theme's dark colour. */
export function UserAvatar({
  name,
  image,
  size = 'size-10',
}: {
  name: string;
  image?: string | null;
  size?: string;
}) {
  return (
    <div className="avatar avatar-placeholder">
      <div className={`${size} rounded-full bg-neutral text-neutral-content`}>
        {image ? (
          <img src={image} alt="" className="rounded-full" />
        ) : (
          <span aria-hidden="true" className="text-sm font-semibold">
            {initials(name)}
          </span>
        )}
      </div>
    </div>
  );
}
