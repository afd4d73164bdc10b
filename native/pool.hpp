// A fixed set of threads that run the blocks of one job together (the slots of a batch
// split among them): run(job) calls job(b) for every block b = 0..size()-1, block 0 on the
// calling thread, and returns once every block has run.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sg {

class ThreadPool {
public:
    explicit ThreadPool(int threads) : size_(threads < 1 ? 1 : threads) {
        for (int b = 1; b < size_; ++b) workers_.emplace_back([this, b] { serve(b); });
    }
    ~ThreadPool() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            closing_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
    }
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return size_; }

    void run(const std::function<void(int)>& job) {
        if (size_ == 1) {
            job(0);
            return;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            pending_ = size_ - 1;
            ++generation_;
        }
        wake_.notify_all();
        job(0);
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return pending_ == 0; });
        job_ = nullptr;
    }

private:
    int size_;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int)>* job_ = nullptr;
    int pending_ = 0;
    unsigned long generation_ = 0;
    bool closing_ = false;

    void serve(int block) {
        unsigned long seen = 0;
        while (true) {
            const std::function<void(int)>* job;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return closing_ || generation_ != seen; });
                if (closing_) return;
                seen = generation_;
                job = job_;
            }
            (*job)(block);
            {
                std::lock_guard<std::mutex> lock(mutex_);
                --pending_;
            }
            done_.notify_one();
        }
    }
};

}  // namespace sg
