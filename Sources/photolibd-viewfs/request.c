// How photolibd-viewfs learns what to serve when photolibd reaches it through its socket unit
// (photolibd-viewfs.socket, Accept=yes: an instance per connection, the connection on its standard
// input and output), and how it clears a mount a killed server left on the same folder.
//
// The request is one message: "PLVIEWR1", the mount point's absolute path ending in a NUL, and the
// view's directory (and, when the app may save, its inbox) attached as descriptors (SCM_RIGHTS), so
// this program, outside photolibd's sandbox, serves exactly the directories photolibd opened.
// "PLVIEWR2" is the same for a view of references: the library follows the view's directory, and
// after the tag's NUL may come the reader's uid in decimal and a NUL (see --reader).
#define _GNU_SOURCE
#include "viewfs.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHANNEL_IN 0
static const char request_magic[8] = {'P', 'L', 'V', 'I', 'E', 'W', 'R', '1'};
static const char request_with_library[8] = {'P', 'L', 'V', 'I', 'E', 'W', 'R', '2'};

static int is_directory(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

// A views directory's tag (ViewMountName): hexadecimal digits, 1 to 32 of them.
int valid_tag(const char *tag) {
    size_t length = strlen(tag);
    if (length == 0 || length > 32) return 0;
    for (size_t i = 0; i < length; i++)
        if (!((tag[i] >= '0' && tag[i] <= '9') || (tag[i] >= 'a' && tag[i] <= 'f'))) return 0;
    return 1;
}

int read_request(char **mount_point, int *source, int *inbox, int *library, uid_t *reader, char **tag) {
    char buffer[sizeof request_magic + 4096 + 1];
    union {
        struct cmsghdr header;
        char room[CMSG_SPACE(3 * sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec bytes = {.iov_base = buffer, .iov_len = sizeof buffer - 1};
    struct msghdr message = {.msg_iov = &bytes, .msg_iovlen = 1, .msg_control = control.room, .msg_controllen = sizeof control.room};
    ssize_t count;
    do {
        count = recvmsg(CHANNEL_IN, &message, MSG_CMSG_CLOEXEC);
    } while (count < 0 && errno == EINTR);
    int fds[3] = {-1, -1, -1};
    size_t passed = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        passed = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        memcpy(fds, CMSG_DATA(header), (passed > 3 ? 3 : passed) * sizeof(int));
    }
    buffer[count > 0 ? count : 0] = '\0';
    const char *path = buffer + sizeof request_magic;
    // After the mount point's NUL, the views directory's tag and its NUL, or nothing (an older photolibd).
    size_t used = sizeof request_magic + strlen(path) + 1;
    const char *given = used < (size_t)count ? buffer + used : NULL;
    int with_library = count > (ssize_t)sizeof request_magic && memcmp(buffer, request_with_library, sizeof request_with_library) == 0;
    size_t least = with_library ? 2 : 1;
    // With the library: after the tag, the reader's uid (decimal digits, not 0) and its NUL, or nothing.
    const char *uid = given && with_library && used + strlen(given) + 1 < (size_t)count ? given + strlen(given) + 1 : NULL;
    size_t end = uid ? (size_t)(uid - buffer) + strlen(uid) + 1 : given ? used + strlen(given) + 1 : used;
    int uid_valid = !uid || (uid[0] >= '1' && uid[0] <= '9' && strspn(uid, "0123456789") == strlen(uid) && strlen(uid) <= 9);
    int valid = count > (ssize_t)sizeof request_magic && (with_library || memcmp(buffer, request_magic, sizeof request_magic) == 0)
        && passed >= least && passed <= least + 1 && !(message.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) && path[0] == '/'
        && used <= (size_t)count && (!given || (end == (size_t)count && valid_tag(given))) && uid_valid;
    for (size_t i = 0; valid && i < passed; i++) valid = is_directory(fds[i]);
    if (!valid) {
        for (size_t i = 0; i < 3; i++)
            if (fds[i] >= 0) close(fds[i]);
        errno = EPROTO;
        return -1;
    }
    *mount_point = strdup(path);
    *tag = given ? strdup(given) : NULL;
    *source = fds[0];
    *library = with_library ? fds[1] : -1;
    *reader = uid ? (uid_t)strtoul(uid, NULL, 10) : (uid_t)-1;
    *inbox = passed == least + 1 ? fds[least] : -1;
    return *mount_point && (!given || *tag) ? 0 : -1;
}

// A mountinfo field decoded: the kernel writes space, tab, newline and backslash as \ooo.
static void unescape(char *field) {
    char *out = field;
    for (char *in = field; *in; out++) {
        if (in[0] == '\\' && in[1] >= '0' && in[1] <= '7' && in[2] >= '0' && in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
            *out = (char)(((in[1] - '0') << 6) | ((in[2] - '0') << 3) | (in[3] - '0'));
            in += 4;
        } else {
            *out = *in++;
        }
    }
    *out = '\0';
}

// Whether a mount named `source` is one a daemon of the views directory tagged `tag` may have left:
// tagged so, or untagged (a server from before the tag). The same rule as ViewMountName.isOurs.
static int ours(const char *source, const char *tag) {
    if (strcmp(source, "photolibd") == 0) return 1;
    if (strncmp(source, "photolibd:", 10) != 0) return 0;
    const char *rest = source + 10;
    const char *colon = strchr(rest, ':');
    return !colon || ((size_t)(colon - rest) == strlen(tag) && strncmp(rest, tag, strlen(tag)) == 0);
}

int view_mounted_at(const char *path, const char *source, const char *tag) {
    FILE *table = fopen("/proc/self/mountinfo", "re");
    if (!table) return 0;
    char *line = NULL;
    size_t size = 0;
    int found = 0;
    while (!found && getline(&line, &size, table) > 0) {
        char *fields[32];
        int count = 0;
        for (char *save = NULL, *field = strtok_r(line, " \n", &save); field && count < 32; field = strtok_r(NULL, " \n", &save))
            fields[count++] = field;
        for (int i = 6; i + 2 < count; i++) {
            if (strcmp(fields[i], "-") != 0) continue;
            unescape(fields[4]);
            unescape(fields[i + 2]);
            found = strcmp(fields[i + 1], "fuse.photolibd-view") == 0 && strcmp(fields[4], path) == 0
                && (source ? strcmp(fields[i + 2], source) == 0 : !tag || ours(fields[i + 2], tag));
            break;
        }
    }
    free(line);
    fclose(table);
    return found;
}

void unmount_stale(const char *path, const char *tag) {
    // A server that ended on its own has its unmounter take its mount down a moment later: waited
    // for (2 s at most), so that unmounter never meets this server's mount instead. What is still
    // there after was left by a server killed with its unmounter. Another daemon's is not touched.
    for (int waited = 0; view_mounted_at(path, NULL, tag) && waited < 100; waited++) nanosleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
    if (!view_mounted_at(path, NULL, tag)) return;
    fprintf(stderr, "photolibd-viewfs: unmounting the view a server that was killed left on %s\n", path);
    pid_t child = fork();
    if (child == 0) {
        execlp("fusermount3", "fusermount3", "-u", "-z", "-q", "--", path, (char *)NULL);
        _exit(127);
    }
    int status;
    if (child > 0)
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
}
