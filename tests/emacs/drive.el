;;; drive.el --- Emacs drives eglot against formscript, in batch  -*- lexical-binding: t -*-

;; Loads the README's Emacs setup (FORMSCRIPT_SNIPPET) as Emacs's startup would (packages
;; activated first), then does what a user does, with the editor's own commands:
;; opens the files, reads Flymake's diagnostics, asks eldoc's hover function, completes at
;; point, picks code actions from eglot's menu (the menu answered by a stand-in for the
;; minibuffer), renames, saves, and shuts the servers down.  What it saw goes to
;; FORMSCRIPT_OUT as JSON.  The batch command loop does not run, so after each command the
;; driver runs `post-command-hook' (and `window-configuration-change-hook', as redisplay
;; would) itself.

(require 'cl-lib)
(require 'json)
(package-initialize)
(load (getenv "FORMSCRIPT_SNIPPET") nil t)
(setq eglot-connect-timeout 120)           ; a loaded CI machine starts Python slowly

(defvar fs-seen nil "What the driver saw, an alist.")
(defvar fs-errors nil "Errors signalled while driving.")

(defun fs-put (key value) (push (cons key value) fs-seen))

(defun fs-command-loop ()
  "What the command loop and redisplay do after a command (Flymake starts when a buffer
is shown)."
  (run-hooks 'window-configuration-change-hook)
  (run-hooks 'post-command-hook))

(defun fs-wait (predicate seconds)
  "Wait up to SECONDS for PREDICATE, handling the server's messages meanwhile."
  (let ((deadline (+ (float-time) seconds)) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (fs-command-loop))
    value))

(defun fs-open (file)
  "Visit FILE as `find-file' does, and wait until eglot manages it."
  (find-file file)
  (fs-command-loop)
  (unless (fs-wait (lambda () (bound-and-true-p eglot--managed-mode)) 120)
    (push (format "eglot never managed %s" file) fs-errors)))

(defun fs-goto (line column)
  "Point to LINE (1-based) and COLUMN (0-based characters)."
  (goto-char (point-min))
  (forward-line (1- line))
  (forward-char column))

(defun fs-reported-p ()
  (memq 'eglot-flymake-backend (flymake-reporting-backends)))

(defun fs-diagnostics ()
  "Flymake's diagnostics of the buffer, once eglot's backend has reported."
  (fs-wait #'fs-reported-p 120)
  (fs-wait (lambda () (flymake-diagnostics (point-min) (point-max))) 5)
  (mapcar
   (lambda (d)
     (let ((beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d)))
       `((line . ,(line-number-at-pos beg))
         (column . ,(save-excursion (goto-char beg) (current-column)))
         (end_line . ,(line-number-at-pos end))
         (end_column . ,(save-excursion (goto-char end) (current-column)))
         (type . ,(symbol-name (flymake-diagnostic-type d)))
         (text . ,(flymake-diagnostic-text d)))))
   (sort (flymake-diagnostics (point-min) (point-max))
         (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))

(defun fs-hover ()
  "The text eldoc gets from eglot's hover function at point."
  (let (got)
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq got (or info ""))))
    (fs-wait (lambda () got) 30)
    (and got (substring-no-properties got))))

(defun fs-completions ()
  "The candidates `completion-at-point' offers at point (eglot's function)."
  (let* ((found (eglot-completion-at-point))
         (prefix (buffer-substring-no-properties (nth 0 found) (nth 1 found))))
    (mapcar #'substring-no-properties (all-completions prefix (nth 2 found)))))

(defun fs-pick-action (title-prefix)
  "Run eglot's code-action menu at point, choosing the action whose title starts with
TITLE-PREFIX; the titles offered."
  (let (offered (last-nonmenu-event ?\r))  ; chosen from the keyboard, not a mouse menu
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq offered (mapcar #'car collection))
                 (or (cl-find-if (lambda (title) (string-prefix-p title-prefix title)) offered)
                     (error "no action %S among %S" title-prefix offered)))))
      (condition-case err
          (eglot-code-actions (point) (point) nil t)
        (error (push (format "code action %s: %S" title-prefix err) fs-errors))))
    (fs-command-loop)
    offered))

(defun fs-messages-since (start)
  (with-current-buffer (messages-buffer)
    (buffer-substring-no-properties (min start (point-max)) (point-max))))

(defun fs-run-action (title-prefix wanted)
  "Pick the run action TITLE-PREFIX; the messages it produced, once one contains WANTED."
  (let ((start (with-current-buffer (messages-buffer) (point-max))))
    (fs-pick-action title-prefix)
    (fs-wait (lambda () (string-match-p (regexp-quote wanted) (fs-messages-since start))) 60)
    (fs-messages-since start)))

(defun fs-events (server)
  (with-current-buffer (jsonrpc-events-buffer server) (buffer-substring-no-properties (point-min) (point-max))))

(defun fs-shutdown (server)
  "Shut SERVER down as `eglot-shutdown' does; its exit status and any error."
  (let ((process (jsonrpc--process server)) error-text)
    (condition-case err (eglot-shutdown server nil 60 t)
      (error (setq error-text (format "%S" err))))
    (fs-wait (lambda () (not (process-live-p process))) 30)
    `((exit . ,(process-exit-status process))
      (error . ,error-text)
      (events . ,(fs-events server)))))

(defun fs-file (name) (expand-file-name name (getenv "FORMSCRIPT_DIR")))

(condition-case err
    (progn
      ;; --- a form: diagnostics, hover, the fixes, completion
      (fs-open (fs-file "signup.form.yaml"))
      (fs-put 'server_modes (mapcar #'symbol-name (eglot--major-modes (eglot-current-server))))
      (fs-put 'diagnostics (fs-diagnostics))
      (fs-goto 18 11)
      (fs-put 'hover (fs-hover))
      (fs-put 'actions (fs-pick-action "Fix all safe formscript problems"))
      (save-buffer)
      (goto-char (point-max))
      (insert "  ")
      (fs-command-loop)
      (fs-put 'completions (fs-completions))
      (set-buffer-modified-p nil)
      ;; --- rename a field in a clean form
      (fs-open (fs-file "review.form.yaml"))
      (fs-goto 7 4)
      (condition-case err (eglot-rename "pr_number")
        (error (push (format "rename: %S" err) fs-errors)))
      (fs-command-loop)
      (save-buffer)
      ;; --- the dry run and the simulation, as code actions
      (fs-open (fs-file "plain.form.yaml"))
      (fs-goto 1 0)
      (fs-put 'dry_run (fs-run-action "formscript: Dry run" "formscript dry run:"))
      (fs-open (fs-file "weather.script.yaml"))
      (fs-goto 1 0)
      (fs-put 'script_actions (mapcar (lambda (a) (plist-get a :title)) (eglot-code-actions (point) (point))))
      (fs-put 'simulation (fs-run-action "formscript: Simulate" "formscript simulation:"))
      ;; --- Python test files join the project's server
      (fs-open (fs-file "test_uses.py"))
      (fs-put 'python_mode (symbol-name major-mode))
      (fs-wait (lambda () (flymake-diagnostics (point-min) (point-max))) 60)
      (fs-put 'uses (fs-diagnostics))
      (fs-open (fs-file "test_plain.py"))
      (fs-put 'plain (fs-diagnostics))
      (fs-put 'servers (length (hash-table-values eglot--servers-by-project)))
      (fs-put 'shutdown (fs-shutdown (eglot-current-server)))
      ;; --- a new project: shut down as soon as the server is connected
      (fs-open (fs-file "other/quick.form.yaml"))
      (fs-put 'quick_shutdown (fs-shutdown (eglot-current-server))))
  (error (push (format "driver: %S" err) fs-errors)))

(fs-put 'errors (reverse fs-errors))
(with-temp-file (getenv "FORMSCRIPT_OUT")
  (insert (json-encode fs-seen)))
(kill-emacs 0)
;;; drive.el ends here
