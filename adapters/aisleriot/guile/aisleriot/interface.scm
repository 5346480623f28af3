;;; The module (aisleriot interface) that Aisleriot's C program normally
;;; defines (cscm_init in src/game.c), rebuilt headless: slots are plain data,
;;; the display calls do nothing, and the game's lambdas are kept for the
;;; driver to call.
(define-module (aisleriot interface)
  #:export (set-feature-word! get-feature-word set-statusbar-message-c
            reset-surface add-slot get-slot set-cards-c!
            set-slot-y-expansion! set-slot-x-expansion!
            set-lambda set-lambda! aisleriot-random click-to-move?
            update-score get-timeout set-timeout! delayed-call
            undo-set-sensitive redo-set-sensitive dealable-set-sensitive
            ;; for the driver, not part of the C program's interface
            game-lambda slot-ids))

;; slot id -> card list, top card first (the order get-slot gives the game)
(define slots (make-hash-table))
(define feature-word 0)
(define lambdas (make-hash-table))
(define lambda-names
  '(new-game button-pressed button-released button-clicked
    button-double-clicked game-over winning-game hint
    get-options apply-options timeout droppable dealable))
(define random-state (seed->random-state 1))
(define timeout-value 3600)

(define (slot-ids)
  (sort (hash-map->list (lambda (k v) k) slots) <))

(define (game-lambda name) (hash-ref lambdas name))

(define (set-feature-word! word) (set! feature-word word) '())
(define (get-feature-word) feature-word)
(define (set-statusbar-message-c message) '())
(define (reset-surface) (hash-clear! slots) '())
;; slot-data is (id cards placement type), as api.scm's new-slot/set-tag! make it
(define (add-slot slot-data)
  (hash-set! slots (car slot-data) (cadr slot-data))
  '())
(define (get-slot slot-id)
  (let ((cards (hash-ref slots slot-id #f)))
    (if cards (list slot-id cards) '())))
(define (set-cards-c! slot-id cards)
  (hash-set! slots slot-id cards)
  #t)
(define (set-slot-y-expansion! slot-id value) '())
(define (set-slot-x-expansion! slot-id value) '())

;; set-lambda takes eight lambdas, then get-options, apply-options, timeout,
;; then droppable and dealable when the feature word says so (scm_set_lambda)
(define (set-lambda . all)
  (let loop ((names lambda-names) (rest all))
    (when (and (pair? names) (pair? rest))
      (let ((name (car names)))
        (cond ((and (eq? name 'droppable) (zero? (logand feature-word 1)))
               (loop (cdr names) rest))
              ((and (eq? name 'dealable) (zero? (logand feature-word 4)))
               (loop (cdr names) rest))
              (else
               (hash-set! lambdas name (car rest))
               (loop (cdr names) (cdr rest)))))))
  '())
(define (set-lambda! symbol lambda)
  (if (memq symbol lambda-names)
      (begin (hash-set! lambdas symbol lambda) '())
      (throw 'aisleriot-invalid-call "Unknown lambda name in set-lambda!")))
(define (aisleriot-random range) (random range random-state))
(define (click-to-move?) #f)
(define (update-score new-score) new-score)
(define (get-timeout) timeout-value)
(define (set-timeout! new) (set! timeout-value new) new)
(define (delayed-call callback)
  (throw 'aisleriot-invalid-call "delayed-call is not available headless"))
(define (undo-set-sensitive state) '())
(define (redo-set-sensitive state) '())
(define (dealable-set-sensitive state) '())
