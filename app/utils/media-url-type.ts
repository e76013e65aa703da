/**
 * Which post type a Media URL looks like (beyond SPEC #10): a YouTube or Vimeo link, or a video
 * file, looks like a Video; a podcast host or an audio file looks like a Podcast; anything else
 * suggests nothing. The create form uses it to offer the type. Pure and browser-safe.
 */

export type SuggestedPostType = "video" | "podcast";

const VIDEO_HOSTS = ["youtube.com", "youtu.be", "youtube-nocookie.com", "vimeo.com"];
const PODCAST_HOSTS = ["podcasts.apple.com", "anchor.fm", "podcasters.spotify.com", "podcasts.google.com", "overcast.fm", "pca.st"];
const VIDEO_FILE = /\.(mp4|m4v|webm|mov)$/i;
const AUDIO_FILE = /\.(mp3|m4a|aac|ogg|oga|opus|wav)$/i;
/** open.spotify.com is music too: only its episodes and shows are podcasts. */
const SPOTIFY_PODCAST = /^\/(?:intl-[a-z-]+\/)?(episode|show)\//i;

function onHost(hostname: string, hosts: string[]): boolean {
  return hosts.some((host) => hostname === host || hostname.endsWith(`.${host}`));
}

function parse(value: string): URL | null {
  const text = value.trim();
  if (!text) return null;
  try {
    // A link typed without its scheme ("youtu.be/abc") is still recognised.
    return new URL(/^[a-z][a-z\d+.-]*:/i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
}

export function suggestedPostType(value: string): SuggestedPostType | null {
  const url = parse(value);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return null;
  const host = url.hostname.toLowerCase();
  if (onHost(host, VIDEO_HOSTS) || VIDEO_FILE.test(url.pathname)) return "video";
  if (onHost(host, PODCAST_HOSTS) || (host === "open.spotify.com" && SPOTIFY_PODCAST.test(url.pathname))) return "podcast";
  if (AUDIO_FILE.test(url.pathname)) return "podcast";
  return null;
}
