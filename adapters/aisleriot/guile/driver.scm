;;; Drive Aisleriot's compiled Scorpion (scorpion.go on aisleriot/api.go)
;;; headlessly, one request per line, for the Python glue in ../adapter.py.
;;;
;;;   guile --no-auto-compile -L adapters/aisleriot/guile \
;;;         adapters/aisleriot/guile/driver.scm GO-DIRECTORY
;;;
;;; GO-DIRECTORY holds scorpion.go and aisleriot/api.go, as the Debian package
;;; installs them (usr/lib/<triplet>/aisleriot/guile/3.0).
;;;
;;; Requests are S-expressions, one per line (Guile's reader parses them):
;;;   (start COLUMNS STOCK)  COLUMNS: seven (DOWN UP) lists, bottom to top;
;;;                          STOCK: dealing order; a card is (RANK SUIT) with
;;;                          Aisleriot's numbers (ace 1 .. king 13; club 0,
;;;                          diamond 1, heart 2, spade 3)
;;;   (state)                the slots and the status
;;;   (legal)                every (SLOT COUNT DEST) the game accepts, and
;;;                          whether a click on the stock deals
;;;   (move SLOT COUNT DEST) drag the top COUNT cards of SLOT onto DEST
;;;   (deal)                 click the stock (slot 0)
;;;   (undo)                 the game's own undo (api.scm)
;;; Answers are JSON objects, one per line (Python's json module parses them).
;;; Every decision is the game's: this file only calls the game's lambdas in
;;; the order the C program calls them (src/game.c, src/ar-board-noclutter.c).

(use-modules (aisleriot interface) (ice-9 rdelim))

(define go-dir (cadr (command-line)))

(define (load-go file)
  ;; load-compiled sets the current module to the file's own: keep ours
  (save-module-excursion
   (lambda () (load-compiled (string-append go-dir "/" file)))))

(load-go "aisleriot/api.go")
(define api (resolve-interface '(aisleriot api)))
(define game-module (make-fresh-user-module))
(save-module-excursion
 (lambda ()
   (set-current-module game-module)
   (load-compiled (string-append go-dir "/scorpion.go"))))

(define (api-ref name) (module-ref api name))
(define (game-ref name) (module-ref game-module name))
(define (call name . args) (apply (game-lambda name) args))

(define tableau '(1 2 3 4 5 6 7))
(define all-slots '(0 1 2 3 4 5 6 7))

;;; --- JSON out -----------------------------------------------------------

(define (json-string s)
  (string-append
   "\""
   (string-concatenate
    (map (lambda (c)
           (cond ((char=? c #\") "\\\"")
                 ((char=? c #\\) "\\\\")
                 ((< (char->integer c) 32)
                  (format #f "\\u~4,'0x" (char->integer c)))
                 (else (string c))))
         (string->list s)))
   "\""))

(define (json value)
  (cond ((eq? value #t) "true")
        ((eq? value #f) "false")
        ((integer? value) (number->string value))
        ((string? value) (json-string value))
        ((symbol? value) (json-string (symbol->string value)))
        ((vector? value)                ; a vector of (key . value) pairs: an object
         (string-append
          "{"
          (string-join (map (lambda (pair)
                              (string-append (json (car pair)) ":" (json (cdr pair))))
                            (vector->list value))
                       ",")
          "}"))
        ((list? value)
         (string-append "[" (string-join (map json value) ",") "]"))
        (else (json-string (format #f "~a" value)))))

(define (answer . pairs) (list->vector pairs))

;;; --- the table ----------------------------------------------------------

(define (cards-of slot) ((api-ref 'get-cards) slot))
(define (put! slot cards) (set-cards-c! slot cards))
(define (card-json card) (list (car card) (cadr card) (if (caddr card) #t #f)))

(define (snapshot) (cons ((api-ref 'get-score)) (map cards-of all-slots)))
(define (restore! snap)
  (for-each put! all-slots (cdr snap))
  ((api-ref 'set-score!) (car snap)))

(define (status)
  ;; aisleriot_game_test_end_of_game: the game is over when game-over (the
  ;; game's game-continuable) says #f; then winning-game decides won or lost.
  ;; An exception counts as continuable, and as not won, as in C.
  (let ((continuable (catch #t (lambda () (call 'game-over)) (lambda _ #t))))
    (cond (continuable "playing")
          ((catch #t (lambda () (call 'winning-game)) (lambda _ #f)) "won")
          (else "lost"))))

(define (state-answer . more)
  (apply answer
         (cons 'ok #t)
         (cons 'slots (map (lambda (slot) (map card-json (cards-of slot))) all-slots))
         (cons 'status (status))
         (cons 'score ((api-ref 'get-score)))
         more))

(define (refusal why . more)
  (apply answer (cons 'ok #f) (cons 'refused why) more))

;;; --- commands -----------------------------------------------------------

(define (make-card* rank suit visible) (list rank suit visible))

(define (start columns stock)
  ;; the game builds its own slots (new-game shuffles and deals at random),
  ;; then the position replaces what it dealt, as a saved game would
  (call 'new-game)
  ((api-ref 'start-game))
  (put! 0 (map (lambda (c) (make-card* (car c) (cadr c) #f)) stock))
  (for-each
   (lambda (slot column)
     (let ((down (car column)) (up (cadr column)))
       (put! slot (append (reverse (map (lambda (c) (make-card* (car c) (cadr c) #t)) up))
                          (reverse (map (lambda (c) (make-card* (car c) (cadr c) #f)) down))))))
   tableau columns)
  ((game-ref 'check-score))             ; what new-game does after dealing
  (state-answer))

(define (with-group slot count proc)
  ;; as the board's drag_begin: the dragged cards leave their slot before
  ;; droppable and button-released are asked
  (let* ((cards (cards-of slot)) (group (list-head cards count)))
    (put! slot (list-tail cards count))
    (let ((result (proc group)))
      (put! slot cards)
      result)))

(define (legal)
  (let ((moves '()))
    (for-each
     (lambda (slot)
       (let ((cards (cards-of slot)))
         (do ((count 1 (+ count 1))) ((> count (length cards)))
           (when (call 'button-pressed slot (list-head cards count))
             (with-group slot count
               (lambda (group)
                 (for-each
                  (lambda (dest)
                    (when (call 'droppable slot group dest)
                      (set! moves (cons (list slot count dest) moves))))
                  tableau)))))))
     all-slots)
    (answer (cons 'ok #t) (cons 'moves (reverse moves)) (cons 'deal (deal-accepted?)))))

(define (deal-accepted?)
  ;; a click on the stock, tried and taken back
  (let ((snap (snapshot)))
    (let ((result (catch #t (lambda () (call 'button-clicked 0)) (lambda _ #f))))
      (restore! snap)
      (if result #t #f))))

(define (move slot count dest)
  (let* ((cards (cards-of slot)))
    (cond ((or (< count 1) (> count (length cards))) (refusal 'no-such-cards))
          ((not (call 'button-pressed slot (list-head cards count))) (refusal 'button-pressed))
          (else
           ((api-ref 'record-move) slot cards)
           (let ((group (list-head cards count)))
             (put! slot (list-tail cards count))
             (if (and (call 'droppable slot group dest)
                      (call 'button-released slot group dest))
                 (begin ((api-ref 'end-move)) (state-answer))
                 (begin ((api-ref 'discard-move)) (put! slot cards) (refusal 'button-released))))))))

(define (deal)
  (let ((snap (snapshot)))
    ((api-ref 'record-move) -1 '())
    (catch #t
      (lambda ()
        (if (call 'button-clicked 0)
            (begin ((api-ref 'end-move)) (state-answer))
            (begin ((api-ref 'discard-move)) (refusal 'button-clicked))))
      (lambda (key . args)
        ;; game_scm_call: the C program reports the exception and stops the game
        ((api-ref 'discard-move))
        (restore! snap)
        (refusal 'exception (cons 'exception (format #f "~a ~s" key args)))))))

(define (undo)
  (if ((api-ref 'undo)) (state-answer) (refusal 'nothing-to-undo)))

(define (perform request)
  (case (car request)
    ((start) (apply start (cdr request)))
    ((state) (state-answer))
    ((legal) (legal))
    ((move) (apply move (cdr request)))
    ((deal) (deal))
    ((undo) (undo))
    (else (answer (cons 'ok #f) (cons 'error "unknown request")))))

(define (serve)
  (let ((line (read-line)))
    (unless (eof-object? line)
      (let ((reply
             (catch #t
               (lambda () (perform (with-input-from-string line read)))
               (lambda (key . args)
                 (answer (cons 'ok #f) (cons 'error (format #f "~a ~s" key args)))))))
        (display (json reply))
        (newline)
        (force-output))
      (serve))))

(set-port-encoding! (current-output-port) "UTF-8")
(serve)
